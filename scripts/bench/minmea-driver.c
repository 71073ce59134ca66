/*
 * Times minmea over the sentences the NMEAParsing benchmark parses, for
 * scripts/bench-nmea-vs-minmea.sh. FairFuel's own code: it only includes
 * minmea.h, which the script fetches outside the repository at run time.
 *
 * Usage: minmea-driver DIRECTORY [PASSES]
 *
 * The sentence list is built exactly as Benchmarks/.../NMEAParsing.swift
 * builds it: every `*.log` file of DIRECTORY (not its subfolders), in byte
 * order of the names, split at LF; a line that starts with `$` or `!` is a
 * sentence, with one trailing CR dropped. The lines are loaded into memory
 * once, NUL-terminated as minmea wants them. One pass parses every sentence
 * once: minmea_sentence_id (strict: a missing checksum is rejected, as our
 * parser's default does) and then the minmea_parse_* of its type. The pass
 * time is taken per pass, so the median over passes compares with the
 * benchmark's p50 of sentences/s over its iterations.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minmea.h"

struct line_list {
    char *text;          /* every sentence, each followed by NUL */
    size_t text_length;
    size_t text_capacity;
    size_t *starts;      /* offset of each sentence in text */
    size_t count;
    size_t capacity;
};

static void *grow(void *buffer, size_t *capacity, size_t needed, size_t element)
{
    if (needed <= *capacity)
        return buffer;
    size_t next = *capacity ? *capacity : 1024;
    while (next < needed)
        next *= 2;
    void *grown = realloc(buffer, next * element);
    if (!grown) {
        fprintf(stderr, "minmea-driver: out of memory\n");
        exit(1);
    }
    *capacity = next;
    return grown;
}

static void add_line(struct line_list *list, const char *line, size_t length)
{
    if (length == 0 || (line[0] != '$' && line[0] != '!'))
        return;
    if (line[length - 1] == '\r')
        length--;
    list->text = grow(list->text, &list->text_capacity, list->text_length + length + 1, 1);
    list->starts = grow(list->starts, &list->capacity, list->count + 1, sizeof(size_t));
    memcpy(list->text + list->text_length, line, length);
    list->starts[list->count++] = list->text_length;
    list->text_length += length;
    list->text[list->text_length++] = '\0';
}

static void add_file(struct line_list *list, const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return;
    char *line = NULL;
    size_t line_length = 0, line_capacity = 0;
    int byte;
    while ((byte = fgetc(file)) != EOF) {
        if (byte == '\n') {
            add_line(list, line, line_length);
            line_length = 0;
        } else {
            line = grow(line, &line_capacity, line_length + 1, 1);
            line[line_length++] = (char) byte;
        }
    }
    if (line_length > 0)
        add_line(list, line, line_length);
    free(line);
    fclose(file);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static void load(struct line_list *list, const char *directory)
{
    DIR *folder = opendir(directory);
    if (!folder) {
        fprintf(stderr, "minmea-driver: cannot open %s\n", directory);
        exit(1);
    }
    char **names = NULL;
    size_t count = 0, capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(folder)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length < 4 || strcmp(entry->d_name + length - 4, ".log") != 0)
            continue;
        names = grow(names, &capacity, count + 1, sizeof(char *));
        names[count++] = strdup(entry->d_name);
    }
    closedir(folder);
    qsort(names, count, sizeof(char *), by_name);
    for (size_t i = 0; i < count; i++) {
        size_t length = strlen(directory) + strlen(names[i]) + 2;
        char *path = malloc(length);
        snprintf(path, length, "%s/%s", directory, names[i]);
        add_file(list, path);
        free(path);
        free(names[i]);
    }
    free(names);
}

/* Parses one sentence to its typed minmea result; returns 1 when parsed, and
 * folds a field into *sink so the compiler keeps the work. */
static int parse_one(const char *sentence, long *sink)
{
    switch (minmea_sentence_id(sentence, true)) {
    case MINMEA_SENTENCE_RMC: {
        struct minmea_sentence_rmc frame;
        if (!minmea_parse_rmc(&frame, sentence))
            return 0;
        *sink += frame.latitude.value + frame.speed.value + frame.date.day;
        return 1;
    }
    case MINMEA_SENTENCE_GGA: {
        struct minmea_sentence_gga frame;
        if (!minmea_parse_gga(&frame, sentence))
            return 0;
        *sink += frame.latitude.value + frame.altitude.value + frame.satellites_tracked;
        return 1;
    }
    case MINMEA_SENTENCE_GSA: {
        struct minmea_sentence_gsa frame;
        if (!minmea_parse_gsa(&frame, sentence))
            return 0;
        *sink += frame.fix_type + frame.sats[0] + frame.hdop.value;
        return 1;
    }
    case MINMEA_SENTENCE_GLL: {
        struct minmea_sentence_gll frame;
        if (!minmea_parse_gll(&frame, sentence))
            return 0;
        *sink += frame.latitude.value + frame.time.seconds;
        return 1;
    }
    case MINMEA_SENTENCE_GST: {
        struct minmea_sentence_gst frame;
        if (!minmea_parse_gst(&frame, sentence))
            return 0;
        *sink += frame.rms_deviation.value;
        return 1;
    }
    case MINMEA_SENTENCE_GSV: {
        struct minmea_sentence_gsv frame;
        if (!minmea_parse_gsv(&frame, sentence))
            return 0;
        *sink += frame.total_sats + frame.sats[0].nr;
        return 1;
    }
    case MINMEA_SENTENCE_VTG: {
        struct minmea_sentence_vtg frame;
        if (!minmea_parse_vtg(&frame, sentence))
            return 0;
        *sink += frame.speed_kph.value + frame.true_track_degrees.value;
        return 1;
    }
    case MINMEA_SENTENCE_ZDA: {
        struct minmea_sentence_zda frame;
        if (!minmea_parse_zda(&frame, sentence))
            return 0;
        *sink += frame.date.year + frame.time.hours;
        return 1;
    }
    default:
        return 0;
    }
}

static double now_seconds(void)
{
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double) time.tv_sec + (double) time.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIRECTORY [PASSES]\n", argv[0]);
        return 64;
    }
    int passes = argc > 2 ? atoi(argv[2]) : 200;
    if (passes < 1)
        passes = 1;
    struct line_list list = {0};
    load(&list, argv[1]);
    if (list.count < 10000) {
        fprintf(stderr, "minmea-driver: only %zu sentences under %s\n", list.count, argv[1]);
        return 1;
    }

    long sink = 0;
    size_t parsed = 0;
    for (int warmup = 0; warmup < 3; warmup++) {
        parsed = 0;
        for (size_t i = 0; i < list.count; i++)
            parsed += parse_one(list.text + list.starts[i], &sink);
    }
    double *rates = malloc(sizeof(double) * (size_t) passes);
    for (int pass = 0; pass < passes; pass++) {
        double start = now_seconds();
        for (size_t i = 0; i < list.count; i++)
            sink += parse_one(list.text + list.starts[i], &sink);
        rates[pass] = (double) list.count / (now_seconds() - start);
    }
    qsort(rates, (size_t) passes, sizeof(double), by_value);
    double median = passes % 2 ? rates[passes / 2] : (rates[passes / 2 - 1] + rates[passes / 2]) / 2;

    printf("sentences=%zu parsed=%zu passes=%d median_sentences_per_s=%.0f best_sentences_per_s=%.0f sink=%ld\n",
           list.count, parsed, passes, median, rates[passes - 1], sink & 0xFFFF);
    free(rates);
    free(list.starts);
    free(list.text);
    return 0;
}
