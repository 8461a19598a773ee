// conf_misuse_graph_params.cu - invalid inputs to the typed graph node getters and setters, one
// case each (the runner and the line format: misuse.h; the fixtures: misuse_graph_nodes.h):
// symbol and typed memcpy / memset / host / child node getters and setters with their exec
// variants, kernel node attributes, topology queries and edits, enabling nodes, exec flags, and
// user objects.  The generic form, conditional, event and memory nodes: conf_misuse_graph_nodes.cu.
#include "misuse_graph_nodes.h"

static const misuse_case cases[] = {
    // The symbol comes before every other argument: each of these is all NULL but the kind.
    {"cudaGraphAddMemcpyNodeToSymbol.all_null",
     [] {
         return cudaGraphAddMemcpyNodeToSymbol(NULL, NULL, NULL, 0, NULL, NULL, 0, 0,
                                               cudaMemcpyHostToHost);
     },
     clean},
    {"cudaGraphAddMemcpyNodeFromSymbol.all_null",
     [] {
         return cudaGraphAddMemcpyNodeFromSymbol(NULL, NULL, NULL, 0, NULL, NULL, 0, 0,
                                                 cudaMemcpyHostToHost);
     },
     clean},
    {"cudaGraphMemcpyNodeSetParamsToSymbol.all_null",
     [] { return cudaGraphMemcpyNodeSetParamsToSymbol(NULL, NULL, NULL, 0, 0, cudaMemcpyHostToHost); },
     clean},
    {"cudaGraphMemcpyNodeSetParamsFromSymbol.all_null",
     [] {
         return cudaGraphMemcpyNodeSetParamsFromSymbol(NULL, NULL, NULL, 0, 0, cudaMemcpyHostToHost);
     },
     clean},
    {"cudaGraphExecMemcpyNodeSetParamsToSymbol.all_null",
     [] {
         return cudaGraphExecMemcpyNodeSetParamsToSymbol(NULL, NULL, NULL, NULL, 0, 0,
                                                         cudaMemcpyHostToHost);
     },
     clean},
    {"cudaGraphExecMemcpyNodeSetParamsFromSymbol.all_null",
     [] {
         return cudaGraphExecMemcpyNodeSetParamsFromSymbol(NULL, NULL, NULL, NULL, 0, 0,
                                                           cudaMemcpyHostToHost);
     },
     clean},
    {"cudaGraphAddMemcpyNodeToSymbol.null_out",
     [] {
         return cudaGraphAddMemcpyNodeToSymbol(NULL, fresh_graph(), NULL, 0, sym, d, 16, 0,
                                               cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphAddMemcpyNodeToSymbol.not_a_symbol",
     [] {
         return cudaGraphAddMemcpyNodeToSymbol(&out_node, fresh_graph(), NULL, 0, misuse_host_page,
                                               d, 16, 0, cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphAddMemcpyNodeToSymbol.past_the_end",
     [] {
         return cudaGraphAddMemcpyNodeToSymbol(&out_node, fresh_graph(), NULL, 0, sym, d, 16, 60,
                                               cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphAddMemcpyNodeToSymbol.kind_device_to_host",
     [] {
         return cudaGraphAddMemcpyNodeToSymbol(&out_node, fresh_graph(), NULL, 0, sym, d, 16, 0,
                                               cudaMemcpyDeviceToHost);
     },
     clean},
    {"cudaGraphAddMemcpyNodeFromSymbol.not_a_symbol",
     [] {
         return cudaGraphAddMemcpyNodeFromSymbol(&out_node, fresh_graph(), NULL, 0, d,
                                                 misuse_host_page, 16, 0,
                                                 cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphAddMemcpyNodeFromSymbol.past_the_end",
     [] {
         return cudaGraphAddMemcpyNodeFromSymbol(&out_node, fresh_graph(), NULL, 0, d, sym, 128,
                                                 0, cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphMemcpyNodeGetParams.null_out",
     [] { return cudaGraphMemcpyNodeGetParams(cnode, NULL); }},
    {"cudaGraphMemcpyNodeGetParams.kernel_node",
     [] { return cudaGraphMemcpyNodeGetParams(knode, &p3); }},
    {"cudaGraphMemcpyNodeSetParams.null_params",
     [] { return cudaGraphMemcpyNodeSetParams(own(cnode), NULL); }, clean},
    {"cudaGraphMemcpyNodeSetParams.empty_node",
     [] { return cudaGraphMemcpyNodeSetParams(own(empty), copy_params(cudaMemcpyDeviceToDevice)); },
     clean},
    {"cudaGraphMemcpyNodeSetParams.unknown_kind",
     [] { return cudaGraphMemcpyNodeSetParams(own(cnode), copy_params((cudaMemcpyKind)99)); },
     clean},
    {"cudaGraphMemcpyNodeSetParams1D.kernel_node",
     [] {
         return cudaGraphMemcpyNodeSetParams1D(own(knode), d + 1024, d, 64,
                                               cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphMemcpyNodeSetParams1D.unknown_kind",
     [] { return cudaGraphMemcpyNodeSetParams1D(own(cnode), d + 1024, d, 64, (cudaMemcpyKind)99); },
     clean},
    {"cudaGraphMemcpyNodeSetParamsToSymbol.not_a_symbol",
     [] {
         return cudaGraphMemcpyNodeSetParamsToSymbol(own(cnode), misuse_host_page, d, 16, 0,
                                                     cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphMemcpyNodeSetParamsToSymbol.empty_node",
     [] {
         return cudaGraphMemcpyNodeSetParamsToSymbol(own(empty), sym, d, 16, 0,
                                                     cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphMemcpyNodeSetParamsFromSymbol.past_the_end",
     [] {
         return cudaGraphMemcpyNodeSetParamsFromSymbol(own(cnode), d, sym, 16, 64,
                                                       cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphExecMemcpyNodeSetParams.null_params",
     [] { return cudaGraphExecMemcpyNodeSetParams(own_exec(), cnode, NULL); }, clean},
    {"cudaGraphExecMemcpyNodeSetParams.kernel_node",
     [] {
         return cudaGraphExecMemcpyNodeSetParams(own_exec(), knode,
                                                 copy_params(cudaMemcpyDeviceToDevice));
     },
     clean},
    {"cudaGraphExecMemcpyNodeSetParams1D.unknown_kind",
     [] {
         return cudaGraphExecMemcpyNodeSetParams1D(own_exec(), cnode, d + 1024, d, 64,
                                                   (cudaMemcpyKind)99);
     },
     clean},
    {"cudaGraphExecMemcpyNodeSetParams1D.null_exec",
     [] {
         return cudaGraphExecMemcpyNodeSetParams1D(NULL, cnode, d + 1024, d, 64,
                                                   cudaMemcpyDeviceToDevice);
     }},
    {"cudaGraphExecMemcpyNodeSetParamsToSymbol.not_a_symbol",
     [] {
         return cudaGraphExecMemcpyNodeSetParamsToSymbol(own_exec(), cnode, misuse_host_page, d,
                                                         16, 0, cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphExecMemcpyNodeSetParamsFromSymbol.past_the_end",
     [] {
         return cudaGraphExecMemcpyNodeSetParamsFromSymbol(own_exec(), cnode, d, sym, 16, 64,
                                                           cudaMemcpyDeviceToDevice);
     },
     clean},

    // ---- memset, host and child nodes ----
    {"cudaGraphMemsetNodeGetParams.null_out",
     [] { return cudaGraphMemsetNodeGetParams(mnode, NULL); }},
    {"cudaGraphMemsetNodeGetParams.kernel_node",
     [] { return cudaGraphMemsetNodeGetParams(knode, &mp); }},
    {"cudaGraphMemsetNodeSetParams.element_size_3",
     [] { return cudaGraphMemsetNodeSetParams(own(mnode), memset_params(3)); }, clean},
    {"cudaGraphMemsetNodeSetParams.host_node",
     [] { return cudaGraphMemsetNodeSetParams(own(hnode), memset_params(4)); }, clean},
    {"cudaGraphExecMemsetNodeSetParams.null_params",
     [] { return cudaGraphExecMemsetNodeSetParams(own_exec(), mnode, NULL); }, clean},
    {"cudaGraphExecMemsetNodeSetParams.empty_node",
     [] { return cudaGraphExecMemsetNodeSetParams(own_exec(), empty, memset_params(4)); },
     clean},
    {"cudaGraphHostNodeGetParams.null_out",
     [] { return cudaGraphHostNodeGetParams(hnode, NULL); }},
    {"cudaGraphHostNodeGetParams.kernel_node",
     [] { return cudaGraphHostNodeGetParams(knode, &hp); }},
    {"cudaGraphHostNodeSetParams.null_fn",
     [] {
         hp.fn = NULL;
         hp.userData = NULL;
         return cudaGraphHostNodeSetParams(own(hnode), &hp);
     },
     clean},
    {"cudaGraphExecHostNodeSetParams.null_fn",
     [] {
         hp.fn = NULL;
         hp.userData = NULL;
         return cudaGraphExecHostNodeSetParams(own_exec(), hnode, &hp);
     },
     clean},
    {"cudaGraphExecHostNodeSetParams.memset_node",
     [] {
         hp.fn = host_fn;
         hp.userData = NULL;
         return cudaGraphExecHostNodeSetParams(own_exec(), mnode, &hp);
     },
     clean},
    {"cudaGraphChildGraphNodeGetGraph.null_out",
     [] { return cudaGraphChildGraphNodeGetGraph(childnode, NULL); }},
    {"cudaGraphChildGraphNodeGetGraph.empty_node",
     [] { return cudaGraphChildGraphNodeGetGraph(empty, &out_graph); }},
    {"cudaGraphExecChildGraphNodeSetParams.other_topology",
     [] {
         cudaGraphNode_t a, b;
         CHECK(cudaGraphAddEmptyNode(&a, fresh_graph(), NULL, 0));
         CHECK(cudaGraphAddEmptyNode(&b, made_graph, &a, 1));
         return cudaGraphExecChildGraphNodeSetParams(own_exec(), childnode, made_graph);
     },
     clean},
    {"cudaGraphExecChildGraphNodeSetParams.null_child",
     [] { return cudaGraphExecChildGraphNodeSetParams(own_exec(), childnode, NULL); }, clean},
    {"cudaGraphExecChildGraphNodeSetParams.kernel_node",
     [] { return cudaGraphExecChildGraphNodeSetParams(own_exec(), knode, g2); }, clean},

    // ---- kernel node attributes ----
    {"cudaGraphKernelNodeGetAttribute.null_out",
     [] { return cudaGraphKernelNodeGetAttribute(knode, cudaLaunchAttributePriority, NULL); }},
    {"cudaGraphKernelNodeGetAttribute.empty_node",
     [] { return cudaGraphKernelNodeGetAttribute(empty, cudaLaunchAttributePriority, &av); }},
    {"cudaGraphKernelNodeGetAttribute.unknown_attribute",
     [] { return cudaGraphKernelNodeGetAttribute(knode, (cudaLaunchAttributeID)99, &av); }},
    {"cudaGraphKernelNodeSetAttribute.null_value",
     [] { return cudaGraphKernelNodeSetAttribute(own(knode), cudaLaunchAttributePriority, NULL); },
     clean},
    {"cudaGraphKernelNodeSetAttribute.empty_node",
     [] {
         memset(&av, 0, sizeof av);
         return cudaGraphKernelNodeSetAttribute(own(empty), cudaLaunchAttributePriority, &av);
     },
     clean},
    {"cudaGraphKernelNodeSetAttribute.window_miss_persisting",
     [] {
         memset(&av, 0, sizeof av);
         av.accessPolicyWindow.base_ptr = d;
         av.accessPolicyWindow.num_bytes = 4096;
         av.accessPolicyWindow.hitRatio = 0.5f;
         av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
         av.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
         return cudaGraphKernelNodeSetAttribute(own(knode), cudaLaunchAttributeAccessPolicyWindow,
                                                &av);
     },
     clean},
    {"cudaGraphKernelNodeSetAttribute.window_hit_ratio_2",
     [] {
         memset(&av, 0, sizeof av);
         av.accessPolicyWindow.base_ptr = d;
         av.accessPolicyWindow.num_bytes = 4096;
         av.accessPolicyWindow.hitRatio = 2.0f;
         av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
         av.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
         return cudaGraphKernelNodeSetAttribute(own(knode), cudaLaunchAttributeAccessPolicyWindow,
                                                &av);
     },
     clean},
    {"cudaGraphKernelNodeSetAttribute.cluster_0x1x1",
     [] {
         memset(&av, 0, sizeof av);
         av.clusterDim.y = 1;
         av.clusterDim.z = 1;
         return cudaGraphKernelNodeSetAttribute(own(knode), cudaLaunchAttributeClusterDimension,
                                                &av);
     },
     clean},
    {"cudaGraphKernelNodeCopyAttributes.empty_source",
     [] { return cudaGraphKernelNodeCopyAttributes(own(knode), own(empty)); }, clean},
    {"cudaGraphKernelNodeCopyAttributes.null_destination",
     [] { return cudaGraphKernelNodeCopyAttributes(NULL, knode); }},

    // ---- topology ----
    {"cudaGraphGetEdges.null_count",
     [] { return cudaGraphGetEdges(g, NULL, NULL, NULL, NULL); }},
    {"cudaGraphGetEdges.null_graph", [] { return cudaGraphGetEdges(NULL, NULL, NULL, NULL, &n); }},
    {"cudaGraphGetEdges.count_smaller_than_graph",
     [] {
         n = 0;
         cudaError_t e = cudaGraphGetEdges(g, nodes, nodes2, NULL, &n);
         misuse_note("count_%zu", n);
         return e;
     }},
    {"cudaGraphGetEdges.edge_data_without_arrays",
     [] {
         n = 16;
         return cudaGraphGetEdges(g, NULL, NULL, edge_data, &n);
     }},
    {"cudaGraphNodeGetDependencies.null_count",
     [] { return cudaGraphNodeGetDependencies(knode, NULL, NULL, NULL); }},
    {"cudaGraphNodeGetDependencies.null_node",
     [] { return cudaGraphNodeGetDependencies(NULL, NULL, NULL, &n); }},
    {"cudaGraphNodeGetDependentNodes.null_count",
     [] { return cudaGraphNodeGetDependentNodes(empty, NULL, NULL, NULL); }},
    {"cudaGraphNodeGetDependentNodes.count_0_with_array",
     [] {
         n = 0;
         cudaError_t e = cudaGraphNodeGetDependentNodes(empty, nodes, NULL, &n);
         misuse_note("count_%zu", n);
         return e;
     }},
    {"cudaGraphRemoveDependencies.nonexistent_edge",
     [] {
         cudaGraphNode_t from = own(mnode), to = own(hnode);
         return cudaGraphRemoveDependencies(made_graph, &from, &to, NULL, 1);
     },
     clean},
    {"cudaGraphRemoveDependencies.null_graph",
     [] {
         cudaGraphNode_t from = own(empty), to = own(knode);
         return cudaGraphRemoveDependencies(NULL, &from, &to, NULL, 1);
     },
     clean},
    {"cudaGraphRemoveDependencies.null_arrays_with_count",
     [] {
         own(empty);
         return cudaGraphRemoveDependencies(made_graph, NULL, NULL, NULL, 1);
     },
     clean},
    {"cudaGraphRemoveDependencies.other_edge_data",
     [] {
         cudaGraphNode_t from = own(empty), to = own(knode);
         memset(edge_data, 0, sizeof edge_data);
         edge_data[0].from_port = cudaGraphKernelNodePortProgrammatic;
         edge_data[0].type = cudaGraphDependencyTypeProgrammatic;
         return cudaGraphRemoveDependencies(made_graph, &from, &to, edge_data, 1);
     },
     clean},
    {"cudaGraphDestroyNode.null", [] { return cudaGraphDestroyNode(NULL); }},
    {"cudaGraphNodeGetType.null_out", [] { return cudaGraphNodeGetType(knode, NULL); }},
    {"cudaGraphNodeGetType.null_node", [] { return cudaGraphNodeGetType(NULL, &out_type); }},
    {"cudaGraphNodeFindInClone.null_out",
     [] {
         own(empty);
         return cudaGraphNodeFindInClone(NULL, empty, made_graph);
     },
     clean},
    {"cudaGraphNodeFindInClone.not_a_clone",
     [] { return cudaGraphNodeFindInClone(&out_node, empty, g2); }},
    {"cudaGraphNodeFindInClone.null_clone",
     [] { return cudaGraphNodeFindInClone(&out_node, empty, NULL); }},
    {"cudaGraphNodeSetEnabled.host_node",
     [] { return cudaGraphNodeSetEnabled(own_exec(), hnode, 0); }, clean},
    {"cudaGraphNodeSetEnabled.null_exec", [] { return cudaGraphNodeSetEnabled(NULL, knode, 0); }},
    {"cudaGraphNodeSetEnabled.node_of_other_graph",
     [] { return cudaGraphNodeSetEnabled(own_exec(), other_empty, 0); }, clean},
    {"cudaGraphNodeGetEnabled.null_out", [] { return cudaGraphNodeGetEnabled(exec, knode, NULL); }},
    {"cudaGraphNodeGetEnabled.event_node",
     [] { return cudaGraphNodeGetEnabled(exec, rnode, &enabled); }},
    {"cudaGraphExecGetFlags.null_out", [] { return cudaGraphExecGetFlags(exec, NULL); }},
    {"cudaGraphExecGetFlags.null_exec", [] { return cudaGraphExecGetFlags(NULL, &value64); }},

    // ---- user objects ----
    {"cudaUserObjectCreate.null_out",
     [] {
         return cudaUserObjectCreate(NULL, NULL, object_destroyed, 1,
                                     cudaUserObjectNoDestructorSync);
     }},
    {"cudaUserObjectCreate.refcount_0",
     [] {
         return cudaUserObjectCreate(&made_object, NULL, object_destroyed, 0,
                                     cudaUserObjectNoDestructorSync);
     },
     clean},
    {"cudaUserObjectCreate.flags_0",
     [] {
         cudaError_t e = cudaUserObjectCreate(&made_object, NULL, object_destroyed, 1, 0);
         object_refs = e == cudaSuccess ? 1 : 0;
         return e;
     },
     clean},
    {"cudaUserObjectCreate.null_destructor",
     [] {
         cudaError_t e = cudaUserObjectCreate(&made_object, NULL, NULL, 1,
                                              cudaUserObjectNoDestructorSync);
         object_refs = e == cudaSuccess ? 1 : 0;
         return e;
     },
     clean},
    {"cudaUserObjectRetain.count_0", [] { return cudaUserObjectRetain(fresh_object(1), 0); },
     clean},
    {"cudaUserObjectRetain.null_object", [] { return cudaUserObjectRetain(NULL, 1); }},
    {"cudaUserObjectRelease.count_0", [] { return cudaUserObjectRelease(fresh_object(1), 0); },
     clean},
    {"cudaUserObjectRelease.null_object", [] { return cudaUserObjectRelease(NULL, 1); }},
    {"cudaUserObjectRelease.more_than_held",
     [] {
         cudaError_t e = cudaUserObjectRelease(fresh_object(1), 2);
         if (e == cudaSuccess)
             object_refs = 0;   // gone (or worse): nothing left to release
         return e;
     },
     clean},
    {"cudaGraphRetainUserObject.count_0",
     [] { return cudaGraphRetainUserObject(fresh_graph(), fresh_object(1), 0, 0); }, clean},
    {"cudaGraphRetainUserObject.unknown_flags",
     [] { return cudaGraphRetainUserObject(fresh_graph(), fresh_object(1), 1, 2); },
     clean},
    {"cudaGraphRetainUserObject.null_graph",
     [] { return cudaGraphRetainUserObject(NULL, fresh_object(1), 1, 0); }, clean},
    {"cudaGraphRetainUserObject.null_object",
     [] { return cudaGraphRetainUserObject(fresh_graph(), NULL, 1, 0); }, clean},
    {"cudaGraphRetainUserObject.move_more_than_held",
     [] {
         cudaError_t e = cudaGraphRetainUserObject(fresh_graph(), fresh_object(1), 2,
                                                   cudaGraphUserObjectMove);
         if (e == cudaSuccess)
             object_refs = 0;   // the graph took them; destroying it releases them
         return e;
     },
     clean},
    {"cudaGraphReleaseUserObject.count_0",
     [] {
         CHECK(cudaGraphRetainUserObject(fresh_graph(), fresh_object(1), 1, 0));
         return cudaGraphReleaseUserObject(made_graph, made_object, 0);
     },
     clean},
    {"cudaGraphReleaseUserObject.more_than_held",
     [] {
         CHECK(cudaGraphRetainUserObject(fresh_graph(), fresh_object(2), 1, 0));
         cudaError_t e = cudaGraphReleaseUserObject(made_graph, made_object, 2);
         if (e == cudaSuccess)
             object_refs = 1;   // three references less two: one left to release
         return e;
     },
     clean},
    {"cudaGraphReleaseUserObject.not_retained",
     [] {
         cudaError_t e = cudaGraphReleaseUserObject(fresh_graph(), fresh_object(2), 1);
         if (e == cudaSuccess)
             object_refs = 1;   // it released one of the program's
         return e;
     },
     clean},
    {"cudaGraphReleaseUserObject.null_graph",
     [] { return cudaGraphReleaseUserObject(NULL, fresh_object(1), 1); }, clean},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_graph_params", argc, argv, setup, cases,
                         MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
