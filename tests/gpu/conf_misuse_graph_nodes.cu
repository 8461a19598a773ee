// conf_misuse_graph_nodes.cu - invalid inputs to the graph node functions that
// conf_misuse_graph.cu does not cover, one case each (the runner and the line format: misuse.h;
// the fixtures: misuse_graph_nodes.h): cudaGraphAddNode / NodeSetParams / ExecNodeSetParams (bad
// types, reserved bytes, bad edge data, per-type bad parameters), conditional handles, event
// record / wait nodes, memory alloc / free nodes and the graph memory attributes.  The typed
// memcpy, memset, host and child setters, attributes, topology and user objects:
// conf_misuse_graph_params.cu.
#include "misuse_graph_nodes.h"

static const misuse_case cases[] = {
    {"cudaGraphAddNode.null_out",
     [] {
         return cudaGraphAddNode(NULL, fresh_graph(), NULL, NULL, 0,
                                 params(cudaGraphNodeTypeEmpty));
     },
     clean},
    {"cudaGraphAddNode.null_params",
     [] { return add_node(NULL); }, clean},
    {"cudaGraphAddNode.null_graph",
     [] {
         return cudaGraphAddNode(&out_node, NULL, NULL, NULL, 0, params(cudaGraphNodeTypeEmpty));
     }},
    {"cudaGraphAddNode.unknown_type",
     [] { return add_node(params((cudaGraphNodeType)99)); },
     clean},
    {"cudaGraphAddNode.type_12_unused",
     [] { return add_node(params((cudaGraphNodeType)12)); },
     clean},
    {"cudaGraphAddNode.reserved0_nonzero",
     [] {
         cudaGraphNodeParams *p = params(cudaGraphNodeTypeEmpty);
         p->reserved0[1] = 1;
         return add_node(p);
     },
     clean},
    {"cudaGraphAddNode.reserved2_nonzero",
     [] {
         cudaGraphNodeParams *p = params(cudaGraphNodeTypeEmpty);
         p->reserved2 = 1;
         return add_node(p);
     },
     clean},
    {"cudaGraphAddNode.dependencies_null_with_count",
     [] {
         return cudaGraphAddNode(&out_node, fresh_graph(), NULL, NULL, 1,
                                 params(cudaGraphNodeTypeEmpty));
     },
     clean},
    {"cudaGraphAddNode.dependency_of_other_graph",
     [] {
         return cudaGraphAddNode(&out_node, fresh_graph(), &other_empty, NULL, 1,
                                 params(cudaGraphNodeTypeEmpty));
     },
     clean},
    {"cudaGraphAddNode.edge_data_unknown_type",
     [] {
         cudaGraphNode_t from = own(knode);
         memset(edge_data, 0, sizeof edge_data);
         edge_data[0].type = 7;
         return cudaGraphAddNode(&out_node, made_graph, &from, edge_data, 1,
                                 kernel_node(K, 32));
     },
     clean},
    {"cudaGraphAddNode.edge_data_programmatic_from_empty",
     [] {
         cudaGraphNode_t from = own(empty);
         memset(edge_data, 0, sizeof edge_data);
         edge_data[0].from_port = cudaGraphKernelNodePortProgrammatic;
         edge_data[0].type = cudaGraphDependencyTypeProgrammatic;
         return cudaGraphAddNode(&out_node, made_graph, &from, edge_data, 1,
                                 kernel_node(K, 32));
     },
     clean},
    {"cudaGraphAddNode.kernel_not_a_kernel",
     [] { return add_node(kernel_node(MISUSE_NOT_A_KERNEL, 32)); },
     clean},
    {"cudaGraphAddNode.kernel_null_function",
     [] { return add_node(kernel_node(NULL, 32)); },
     clean},
    {"cudaGraphAddNode.kernel_block_2048",
     [] { return add_node(kernel_node(K, 2048)); },
     clean},
    {"cudaGraphAddNode.memset_element_size_3",
     [] { return add_node(memset_node(3)); },
     clean},
    {"cudaGraphAddNode.memcpy_flags_nonzero",
     [] {
         cudaGraphNodeParams *p = memcpy_node();
         p->memcpy.flags = 1;
         return add_node(p);
     },
     clean},
    {"cudaGraphAddNode.memcpy_reserved_nonzero",
     [] {
         cudaGraphNodeParams *p = memcpy_node();
         // The first reserved int, which 13.5's headers name `reserved` (its other two became
         // the context).
#if CUDART_VERSION >= 13050
         p->memcpy.reserved = 1;
#else
         p->memcpy.reserved[0] = 1;
#endif
         return add_node(p);
     },
     clean},
    {"cudaGraphAddNode.host_null_fn",
     [] { return add_node(params(cudaGraphNodeTypeHost)); },
     clean},
    {"cudaGraphAddNode.child_null_graph",
     [] { return add_node(params(cudaGraphNodeTypeGraph)); },
     clean},
    {"cudaGraphAddNode.child_unknown_ownership",
     [] {
         // A child graph of the case's own: if the call took it over (as with
         // cudaGraphChildGraphOwnershipMove), the parent destroys it and the cleanup must not.
         cudaGraphNode_t inside;
         CHECK(cudaGraphCreate(&made_graph2, 0));
         CHECK(cudaGraphAddEmptyNode(&inside, made_graph2, NULL, 0));
         cudaGraphNodeParams *p = params(cudaGraphNodeTypeGraph);
         p->graph.graph = made_graph2;
         p->graph.ownership = (cudaGraphChildGraphNodeOwnership)5;
         cudaError_t e = add_node(p);
         cudaGraph_t owned = NULL;
         if (e == cudaSuccess && cudaGraphChildGraphNodeGetGraph(out_node, &owned) == cudaSuccess) {
             misuse_note("child_is_the_graph_given_%d", owned == made_graph2);
             if (owned == made_graph2)
                 made_graph2 = NULL;
         }
         return e;
     },
     clean},
    {"cudaGraphAddNode.event_record_null_event",
     [] { return add_node(params(cudaGraphNodeTypeEventRecord)); },
     clean},
    {"cudaGraphAddNode.event_wait_null_event",
     [] { return add_node(params(cudaGraphNodeTypeWaitEvent)); },
     clean},
    {"cudaGraphAddNode.mem_alloc_size_0",
     [] {
         cudaGraphNodeParams *p = params(cudaGraphNodeTypeMemAlloc);
         p->alloc.poolProps.allocType = cudaMemAllocationTypePinned;
         p->alloc.poolProps.location.type = cudaMemLocationTypeDevice;
         return add_node(p);
     },
     clean},
    {"cudaGraphAddNode.mem_free_not_a_graph_allocation",
     [] {
         cudaGraphNodeParams *p = params(cudaGraphNodeTypeMemFree);
         p->free.dptr = d;
         return add_node(p);
     },
     clean},
    {"cudaGraphAddNode.conditional_handle_0",
     [] {
         handle = 0;
         return cudaGraphAddNode(&out_node, fresh_graph(), NULL, NULL, 0,
                                 conditional_node(cudaGraphCondTypeIf, 1));
     },
     clean},
    {"cudaGraphAddNode.conditional_while_size_2",
     [] {
         CHECK(cudaGraphConditionalHandleCreate(&handle, fresh_graph(), 0, 0));
         return cudaGraphAddNode(&out_node, made_graph, NULL, NULL, 0,
                                 conditional_node(cudaGraphCondTypeWhile, 2));
     },
     clean},
    {"cudaGraphAddNode.conditional_if_size_3",
     [] {
         CHECK(cudaGraphConditionalHandleCreate(&handle, fresh_graph(), 0, 0));
         return cudaGraphAddNode(&out_node, made_graph, NULL, NULL, 0,
                                 conditional_node(cudaGraphCondTypeIf, 3));
     },
     clean},
    {"cudaGraphAddNode.conditional_unknown_type",
     [] {
         CHECK(cudaGraphConditionalHandleCreate(&handle, fresh_graph(), 0, 0));
         return cudaGraphAddNode(&out_node, made_graph, NULL, NULL, 0,
                                 conditional_node((cudaGraphConditionalNodeType)9, 1));
     },
     clean},
    {"cudaGraphAddNode.conditional_handle_of_other_graph",
     [] {
         CHECK(cudaGraphCreate(&made_graph2, 0));
         CHECK(cudaGraphConditionalHandleCreate(&handle, made_graph2, 0, 0));
         return cudaGraphAddNode(&out_node, fresh_graph(), NULL, NULL, 0,
                                 conditional_node(cudaGraphCondTypeIf, 1));
     },
     clean},

    // ---- cudaGraphNodeSetParams / cudaGraphExecNodeSetParams ----
    {"cudaGraphNodeSetParams.null_params", [] { return cudaGraphNodeSetParams(own(knode), NULL); },
     clean},
    {"cudaGraphNodeSetParams.null_node",
     [] { return cudaGraphNodeSetParams(NULL, kernel_node(K, 32)); }},
    {"cudaGraphNodeSetParams.type_mismatch",
     [] { return cudaGraphNodeSetParams(own(empty), kernel_node(K, 32)); }, clean},
    {"cudaGraphNodeSetParams.reserved0_nonzero",
     [] {
         cudaGraphNodeParams *p = kernel_node(K, 32);
         p->reserved0[0] = 1;
         return cudaGraphNodeSetParams(own(knode), p);
     },
     clean},
    {"cudaGraphNodeSetParams.kernel_not_a_kernel",
     [] { return cudaGraphNodeSetParams(own(knode), kernel_node(MISUSE_NOT_A_KERNEL, 32)); },
     clean},
    {"cudaGraphNodeSetParams.memset_element_size_3",
     [] { return cudaGraphNodeSetParams(own(mnode), memset_node(3)); }, clean},
    {"cudaGraphExecNodeSetParams.null_params",
     [] { return cudaGraphExecNodeSetParams(own_exec(), knode, NULL); }, clean},
    {"cudaGraphExecNodeSetParams.null_exec",
     [] { return cudaGraphExecNodeSetParams(NULL, knode, kernel_node(K, 32)); }},
    {"cudaGraphExecNodeSetParams.type_mismatch",
     [] { return cudaGraphExecNodeSetParams(own_exec(), mnode, kernel_node(K, 32)); }, clean},
    {"cudaGraphExecNodeSetParams.node_of_other_graph",
     [] {
         return cudaGraphExecNodeSetParams(own_exec(), other_empty,
                                           params(cudaGraphNodeTypeEmpty));
     },
     clean},

    // ---- conditional handles ----
    {"cudaGraphConditionalHandleCreate.null_out",
     [] { return cudaGraphConditionalHandleCreate(NULL, fresh_graph(), 0, 0); }, clean},
    {"cudaGraphConditionalHandleCreate.null_graph",
     [] { return cudaGraphConditionalHandleCreate(&handle, NULL, 0, 0); }},
    {"cudaGraphConditionalHandleCreate.unknown_flags",
     [] { return cudaGraphConditionalHandleCreate(&handle, fresh_graph(), 1, 2); }, clean},

    // ---- event record / wait nodes ----
    {"cudaGraphAddEventRecordNode.null_out",
     [] { return cudaGraphAddEventRecordNode(NULL, fresh_graph(), NULL, 0, ev); }, clean},
    {"cudaGraphAddEventRecordNode.null_event",
     [] { return cudaGraphAddEventRecordNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddEventRecordNode.null_graph",
     [] { return cudaGraphAddEventRecordNode(&out_node, NULL, NULL, 0, ev); }},
    {"cudaGraphAddEventWaitNode.null_out",
     [] { return cudaGraphAddEventWaitNode(NULL, fresh_graph(), NULL, 0, ev); }, clean},
    {"cudaGraphAddEventWaitNode.null_event",
     [] { return cudaGraphAddEventWaitNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphEventRecordNodeGetEvent.null_out",
     [] { return cudaGraphEventRecordNodeGetEvent(rnode, NULL); }},
    {"cudaGraphEventRecordNodeGetEvent.wait_node",
     [] { return cudaGraphEventRecordNodeGetEvent(wnode, &out_event); }},
    {"cudaGraphEventRecordNodeGetEvent.null_node",
     [] { return cudaGraphEventRecordNodeGetEvent(NULL, &out_event); }},
    {"cudaGraphEventRecordNodeSetEvent.null_event",
     [] { return cudaGraphEventRecordNodeSetEvent(own(rnode), NULL); }, clean},
    {"cudaGraphEventRecordNodeSetEvent.kernel_node",
     [] { return cudaGraphEventRecordNodeSetEvent(own(knode), ev); }, clean},
    {"cudaGraphEventWaitNodeGetEvent.null_out",
     [] { return cudaGraphEventWaitNodeGetEvent(wnode, NULL); }},
    {"cudaGraphEventWaitNodeGetEvent.record_node",
     [] { return cudaGraphEventWaitNodeGetEvent(rnode, &out_event); }},
    {"cudaGraphEventWaitNodeSetEvent.null_event",
     [] { return cudaGraphEventWaitNodeSetEvent(own(wnode), NULL); }, clean},
    {"cudaGraphEventWaitNodeSetEvent.empty_node",
     [] { return cudaGraphEventWaitNodeSetEvent(own(empty), ev); }, clean},
    {"cudaGraphExecEventRecordNodeSetEvent.null_exec",
     [] { return cudaGraphExecEventRecordNodeSetEvent(NULL, rnode, ev); }},
    {"cudaGraphExecEventRecordNodeSetEvent.wait_node",
     [] { return cudaGraphExecEventRecordNodeSetEvent(own_exec(), wnode, ev); }, clean},
    {"cudaGraphExecEventRecordNodeSetEvent.null_event",
     [] { return cudaGraphExecEventRecordNodeSetEvent(own_exec(), rnode, NULL); }, clean},
    {"cudaGraphExecEventWaitNodeSetEvent.record_node",
     [] { return cudaGraphExecEventWaitNodeSetEvent(own_exec(), rnode, ev); }, clean},
    {"cudaGraphExecEventWaitNodeSetEvent.null_event",
     [] { return cudaGraphExecEventWaitNodeSetEvent(own_exec(), wnode, NULL); }, clean},

    // ---- memory alloc / free nodes, graph memory ----
    {"cudaGraphAddMemAllocNode.null_out",
     [] { return cudaGraphAddMemAllocNode(NULL, fresh_graph(), NULL, 0, alloc_params(4096)); },
     clean},
    {"cudaGraphAddMemAllocNode.null_params",
     [] { return cudaGraphAddMemAllocNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddMemAllocNode.size_0",
     [] { return cudaGraphAddMemAllocNode(&out_node, fresh_graph(), NULL, 0, alloc_params(0)); },
     clean},
    {"cudaGraphAddMemAllocNode.device_99",
     [] {
         cudaMemAllocNodeParams *p = alloc_params(4096);
         p->poolProps.location.id = 99;
         return cudaGraphAddMemAllocNode(&out_node, fresh_graph(), NULL, 0, p);
     },
     clean},
    {"cudaGraphAddMemAllocNode.alloc_type_invalid",
     [] {
         cudaMemAllocNodeParams *p = alloc_params(4096);
         p->poolProps.allocType = cudaMemAllocationTypeInvalid;
         return cudaGraphAddMemAllocNode(&out_node, fresh_graph(), NULL, 0, p);
     },
     clean},
    {"cudaGraphAddMemAllocNode.ipc_handle_type",
     [] {
         cudaMemAllocNodeParams *p = alloc_params(4096);
         p->poolProps.handleTypes = cudaMemHandleTypePosixFileDescriptor;
         return cudaGraphAddMemAllocNode(&out_node, fresh_graph(), NULL, 0, p);
     },
     clean},
    {"cudaGraphAddMemAllocNode.access_descs_null_with_count",
     [] {
         cudaMemAllocNodeParams *p = alloc_params(4096);
         p->accessDescCount = 1;
         return cudaGraphAddMemAllocNode(&out_node, fresh_graph(), NULL, 0, p);
     },
     clean},
    {"cudaGraphAddMemFreeNode.not_a_graph_allocation",
     [] { return cudaGraphAddMemFreeNode(&out_node, fresh_graph(), NULL, 0, d); }, clean},
    {"cudaGraphAddMemFreeNode.null_pointer",
     [] { return cudaGraphAddMemFreeNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddMemFreeNode.null_out",
     [] {
         cudaGraphNode_t alloc = alloc_graph();
         return cudaGraphAddMemFreeNode(NULL, made_graph, &alloc, 1, ap.dptr);
     },
     clean},
    {"cudaGraphAddMemFreeNode.twice",
     [] {
         cudaGraphNode_t alloc = alloc_graph(), first;
         CHECK(cudaGraphAddMemFreeNode(&first, made_graph, &alloc, 1, ap.dptr));
         return cudaGraphAddMemFreeNode(&out_node, made_graph, &first, 1, ap.dptr);
     },
     clean},
    {"cudaGraphAddMemFreeNode.inside_the_allocation",
     [] {
         cudaGraphNode_t alloc = alloc_graph();
         return cudaGraphAddMemFreeNode(&out_node, made_graph, &alloc, 1, (char *)ap.dptr + 64);
     },
     clean},
    {"cudaGraphMemAllocNodeGetParams.null_out",
     [] { return cudaGraphMemAllocNodeGetParams(alloc_graph(), NULL); }, clean},
    {"cudaGraphMemAllocNodeGetParams.kernel_node",
     [] { return cudaGraphMemAllocNodeGetParams(knode, &ap); }},
    {"cudaGraphMemFreeNodeGetParams.null_out",
     [] {
         cudaGraphNode_t alloc = alloc_graph(), release;
         CHECK(cudaGraphAddMemFreeNode(&release, made_graph, &alloc, 1, ap.dptr));
         return cudaGraphMemFreeNodeGetParams(release, NULL);
     },
     clean},
    {"cudaGraphMemFreeNodeGetParams.empty_node",
     [] { return cudaGraphMemFreeNodeGetParams(empty, &out_ptr); }},
    {"cudaGraphDestroyNode.alloc_node", [] { return cudaGraphDestroyNode(alloc_graph()); },
     clean},
    {"cudaGraphClone.graph_with_alloc_node",
     [] {
         alloc_graph();
         return cudaGraphClone(&made_graph2, made_graph);
     },
     clean},
    {"cudaDeviceGetGraphMemAttribute.null_value",
     [] { return cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, NULL); }},
    {"cudaDeviceGetGraphMemAttribute.unknown_attribute",
     [] { return cudaDeviceGetGraphMemAttribute(0, (cudaGraphMemAttributeType)99, &value64); }},
    {"cudaDeviceGetGraphMemAttribute.device_99",
     [] { return cudaDeviceGetGraphMemAttribute(99, cudaGraphMemAttrUsedMemHigh, &value64); }},
    {"cudaDeviceSetGraphMemAttribute.used_high_nonzero",
     [] {
         value64 = 1;
         return cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &value64);
     }},
    {"cudaDeviceSetGraphMemAttribute.used_current",
     [] {
         value64 = 0;
         return cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &value64);
     }},
    {"cudaDeviceSetGraphMemAttribute.null_value",
     [] { return cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, NULL); }},
    {"cudaDeviceSetGraphMemAttribute.device_99",
     [] {
         value64 = 0;
         return cudaDeviceSetGraphMemAttribute(99, cudaGraphMemAttrReservedMemHigh, &value64);
     }},
    {"cudaDeviceGraphMemTrim.device_minus_1", [] { return cudaDeviceGraphMemTrim(-1); }},

    // ---- memcpy nodes: symbols and typed setters ----
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_graph_nodes", argc, argv, setup, cases,
                         MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
