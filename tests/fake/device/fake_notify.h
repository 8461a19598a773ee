/*
 * fake_notify.h - the test hooks of the fake's notification area (fake_notify.c): what makes the
 * fake driver speak on its own, as the real one does when a process goes over its memory budget
 * or logs an error.  Tests find them with dlsym in the library named by MINICUDART_DRIVER.
 */
#ifndef MINICUDART_FAKE_NOTIFY_H
#define MINICUDART_FAKE_NOTIFY_H

#include <stddef.h>

/* Calls every async notification callback registered on `device` with an over-budget
 * notification of bytes_over_budget, on the calling thread; returns how many were called. */
typedef int (*fake_notify_async_fn)(int device, unsigned long long bytes_over_budget);
int fake_notify_async(int device, unsigned long long bytes_over_budget);

/* Appends `message` (without newline) at `level` (0 error, 1 warning) to the fake's log and
 * calls every registered log callback with it; returns how many were called (-1: out of
 * memory). */
typedef int (*fake_notify_log_fn)(int level, const char *message);
int fake_notify_log(int level, const char *message);

/* How many async notification and log callbacks the fake holds registered. */
typedef void (*fake_notify_counts_fn)(size_t *async_out, size_t *logs_out);
void fake_notify_counts(size_t *async_out, size_t *logs_out);

#endif
