/*
 * fuzz_replay.c - a plain main() that replays files through the fuzz targets (fuzz_targets.h)
 * in ordinary CI, without clang or libFuzzer.  Two modes:
 *
 *   fuzz_replay --seeds DIR
 *       The committed seed corpus: DIR/<target>/ for every target that has seeds (all but
 *       `fatbin`, whose corpus is the others' union).  Every file of every directory goes
 *       through every target.  Each directory must hold files, and each file must be accepted
 *       by its own directory's target unless its name starts with "regression-" (a minimised
 *       input a campaign once crashed on, kept so that the bug stays fixed).
 *
 *   fuzz_replay --accept TARGET FILE...
 *       Files (the fixtures nvcc makes during the build) through every target; each must be
 *       accepted by TARGET.
 *
 * A broken promise aborts inside the target, as under libFuzzer; a file not accepted when it
 * must be, an unreadable file or an empty directory makes the exit status 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture.h"
#include "fuzz_targets.h"

#define REGRESSION_PREFIX "regression-"

static const fuzz_target *target_named(const char *name)
{
    for (size_t i = 0; i < fuzz_target_count; i++)
        if (strcmp(fuzz_targets[i].name, name) == 0)
            return &fuzz_targets[i];
    return NULL;
}

/* Runs one file through every target; returns the verdict of `own` (or -1 if unreadable). */
static int replay_file(const char *path, const fuzz_target *own)
{
    size_t size = 0;
    uint8_t *data = fixture_read(path, &size);
    if (!data) {
        fprintf(stderr, "replay: cannot read %s (or it is empty)\n", path);
        return -1;
    }
    int verdict = FUZZ_REJECTED;
    for (size_t i = 0; i < fuzz_target_count; i++) {
        int v = fuzz_targets[i].run(data, size);
        if (&fuzz_targets[i] == own)
            verdict = v;
    }
    free(data);
    return verdict;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of dir, sorted by name; *count set.  NULL (count 0) if none. */
static char **list_files(const char *dir, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        char *path = malloc(len);
        struct stat sb;
        if (!path)
            break;
        snprintf(path, len, "%s/%s", dir, ent->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            free(path);
            continue;
        }
        if (*count == cap) {
            cap = cap ? 2 * cap : 16;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                free(path);
                break;
            }
            names = grown;
        }
        names[(*count)++] = path;
    }
    closedir(d);
    if (*count > 1)
        qsort(names, *count, sizeof *names, compare_names);
    return names;
}

/* Replays DIR/<target>/ for one target; returns the number of failures. */
static int replay_seed_dir(const char *root, const fuzz_target *t)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, t->name);
    size_t count;
    char **files = list_files(dir, &count);
    if (count == 0) {
        fprintf(stderr, "replay: no seeds in %s\n", dir);
        return 1;
    }
    int failures = 0;
    size_t accepted = 0, regressions = 0;
    for (size_t i = 0; i < count; i++) {
        const char *base = strrchr(files[i], '/') + 1;
        bool regression = strncmp(base, REGRESSION_PREFIX, strlen(REGRESSION_PREFIX)) == 0;
        int verdict = replay_file(files[i], t);
        regressions += regression;
        accepted += verdict == FUZZ_ACCEPTED;
        if (verdict < 0 || (verdict != FUZZ_ACCEPTED && !regression)) {
            fprintf(stderr, "replay: %s: not accepted by %s\n", files[i], t->name);
            failures++;
        }
        free(files[i]);
    }
    free(files);
    printf("%s: %zu seeds (%zu regressions), %zu accepted by %s, each run through %zu targets\n",
           dir, count, regressions, accepted, t->name, fuzz_target_count);
    return failures;
}

static int replay_seeds(const char *root)
{
    int failures = 0;
    for (size_t i = 0; i < fuzz_target_count; i++)
        if (strcmp(fuzz_targets[i].name, "fatbin") != 0)
            failures += replay_seed_dir(root, &fuzz_targets[i]);
    return failures;
}

static int replay_accept(const fuzz_target *t, int argc, char **argv)
{
    int failures = 0;
    for (int i = 0; i < argc; i++) {
        int verdict = replay_file(argv[i], t);
        printf("%s: %s by %s\n", argv[i], verdict == FUZZ_ACCEPTED ? "accepted" : "NOT accepted",
               t->name);
        failures += verdict != FUZZ_ACCEPTED;
    }
    return argc > 0 ? failures : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: fuzz_replay --seeds DIR\n"
                    "       fuzz_replay --accept TARGET FILE...\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0)
        return replay_seeds(argv[2]) ? 1 : 0;
    if (argc >= 3 && strcmp(argv[1], "--accept") == 0) {
        const fuzz_target *t = target_named(argv[2]);
        if (!t) {
            fprintf(stderr, "replay: no target named %s\n", argv[2]);
            return 2;
        }
        return replay_accept(t, argc - 3, argv + 3) ? 1 : 0;
    }
    return usage();
}
