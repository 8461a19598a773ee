/*
 * fake_stream.c - the fake driver's streams, events and callbacks (see fake_internal.h).
 */
#include "fake_internal.h"

int fake_stream_is_valid(CUstream stream)
{
    return (uintptr_t)stream <= 2;          /* 0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD */
}

const proc_entry fake_procs_stream[] = {
    {NULL, 0, 0, NULL},
};
