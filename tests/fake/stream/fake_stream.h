/*
 * fake_stream.h - the stream and event records of the fake driver, shared by fake_stream.c
 * (streams, events, callbacks) and fake_green.c (green contexts, their streams and events).
 * Not seen by tests.  Everything here is used with fake_g.lock held.
 */
#ifndef MINICUDART_FAKE_STREAM_H
#define MINICUDART_FAKE_STREAM_H

#include "fake_internal.h"

#define FAKE_STREAM_ATTR_MAX 17          /* ids 0..16 of CUlaunchAttributeID */

/* A stream; its handle is the record's address.  ctx is the context current at creation (a
 * green context's CUcontext for cuGreenCtxStreamCreate). */
typedef struct fake_stream {
    fake_ctx *ctx;
    unsigned flags;
    int priority;
    unsigned long long id;
    int dead;
    CUstreamAttrValue attr[FAKE_STREAM_ATTR_MAX];
} fake_stream;

/* An event; ctx is the owner of the context it was made in (a primary context for a green
 * context's: the events of a primary context and its green contexts mix freely). */
typedef struct fake_event {
    fake_ctx *ctx;
    unsigned flags;
    int recorded;
    float stamp_ms;
    int dead;
} fake_event;

/* A live stream or event record of that handle (the special streams have none), or NULL. */
fake_stream *fake_find_stream(CUstream stream);
fake_event *fake_find_event(CUevent event);
/* Whether s belongs to a green context that was destroyed: work on it answers
 * CUDA_ERROR_STREAM_DETACHED. */
int fake_stream_detached(const fake_stream *s);

#endif
