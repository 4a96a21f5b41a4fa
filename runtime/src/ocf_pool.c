/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The worker threads of a threaded container reader or writer (ocf_pool.h):
 * one mutex guards the ring's counters and every slot's state; a worker takes
 * the oldest submitted slot, runs its codec on it unlocked, and marks it done.
 * No global state: each pool is its owner's.
 */
#include "ocf_pool.h"

#include <string.h>

#include <pthread.h>

/* More workers than this would only spend memory. */
#define OCF_POOL_MAX_THREADS 1024u

enum { JOB_FREE, JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct ocf_worker {
    ocf_pool *pool;
    pthread_t thread;
    avrogen_codec codec;
} ocf_worker;

struct ocf_pool {
    avrogen_alloc alloc;
    bool decompress;
    pthread_mutex_t mu;
    pthread_cond_t work; /* a slot was submitted, or stop */
    pthread_cond_t done; /* a slot is done */
    ocf_job *ring;
    size_t slots;
    uint64_t submitted; /* slots ever submitted; slot i is ring[i % slots] */
    uint64_t taken;     /* of those, taken by a worker */
    uint64_t retired;   /* of those, given back by the owner */
    bool stop;
    ocf_worker *workers;
    unsigned n_workers; /* started */
    unsigned n_codecs;  /* set up: one per thread asked for */
};

static void run_job(ocf_worker *wk, ocf_job *j)
{
    avrogen_codec *c = &wk->codec;
    if (wk->pool->decompress)
        j->st = avrogen_codec_decompress(c, j->in, j->in_len, &j->out, j->max);
    else
        j->st = avrogen_codec_compress(c, j->in, j->in_len, &j->out);
    j->msg = j->st != AVROGEN_OK ? c->msg : NULL;
}

static void *worker_main(void *arg)
{
    ocf_worker *wk = arg;
    ocf_pool *p = wk->pool;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->taken == p->submitted)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        ocf_job *j = &p->ring[p->taken++ % p->slots];
        j->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->mu);
        run_job(wk, j);
        pthread_mutex_lock(&p->mu);
        j->state = JOB_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

avrogen_status ocf_pool_new(const avrogen_alloc *alloc, const char *codec, int level,
                            unsigned threads, size_t slots, bool decompress, ocf_pool **out)
{
    *out = NULL;
    if (threads == 0)
        threads = 1;
    if (threads > OCF_POOL_MAX_THREADS)
        threads = OCF_POOL_MAX_THREADS;
    if (slots == 0)
        slots = 1;
    ocf_pool *p = avrogen_malloc(alloc, sizeof *p);
    if (p == NULL)
        return AVROGEN_E_NOMEM;
    memset(p, 0, sizeof *p);
    p->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    p->decompress = decompress;
    p->slots = slots;
    avrogen_status st = AVROGEN_E_NOMEM;
    if (slots > SIZE_MAX / sizeof *p->ring)
        goto out_free_pool;
    p->ring = avrogen_malloc(&p->alloc, slots * sizeof *p->ring);
    if (p->ring == NULL)
        goto out_free_pool;
    memset(p->ring, 0, slots * sizeof *p->ring);
    p->workers = avrogen_malloc(&p->alloc, threads * sizeof *p->workers);
    if (p->workers == NULL)
        goto out_free_ring;
    memset(p->workers, 0, threads * sizeof *p->workers);
    for (unsigned i = 0; i < threads; i++) {
        st = avrogen_codec_init(&p->workers[i].codec, codec, strlen(codec), level, &p->alloc);
        if (st != AVROGEN_OK)
            goto out_free_workers;
        p->workers[i].pool = p;
        p->n_codecs = i + 1;
    }
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        st = AVROGEN_E_IO;
        goto out_free_workers;
    }
    if (pthread_cond_init(&p->work, NULL) != 0) {
        st = AVROGEN_E_IO;
        goto out_destroy_mu;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        st = AVROGEN_E_IO;
        goto out_destroy_work;
    }
    for (unsigned i = 0; i < threads; i++) {
        if (pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]) != 0)
            break;
        p->n_workers++;
    }
    if (p->n_workers == 0) {
        st = AVROGEN_E_IO;
        pthread_cond_destroy(&p->done);
        goto out_destroy_work;
    }
    /* Fewer threads than asked (a limit on threads) still work: keep the codecs of all. */
    *out = p;
    return AVROGEN_OK;

out_destroy_work:
    pthread_cond_destroy(&p->work);
out_destroy_mu:
    pthread_mutex_destroy(&p->mu);
out_free_workers:
    for (unsigned i = 0; i < p->n_codecs; i++)
        avrogen_codec_fini(&p->workers[i].codec);
    avrogen_free(&p->alloc, p->workers, threads * sizeof *p->workers);
out_free_ring:
    avrogen_free(&p->alloc, p->ring, slots * sizeof *p->ring);
out_free_pool:
    avrogen_free(&p->alloc, p, sizeof *p);
    return st;
}

void ocf_pool_free(ocf_pool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->n_workers; i++)
        pthread_join(p->workers[i].thread, NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    /* The codecs of workers that never started were set up too (ocf_pool_new). */
    size_t n = p->n_codecs;
    for (size_t i = 0; i < n; i++)
        avrogen_codec_fini(&p->workers[i].codec);
    for (size_t i = 0; i < p->slots; i++) {
        avrogen_codec_buf_free(&p->ring[i].own_in, &p->alloc);
        avrogen_codec_buf_free(&p->ring[i].out, &p->alloc);
    }
    avrogen_free(&p->alloc, p->workers, n * sizeof *p->workers);
    avrogen_free(&p->alloc, p->ring, p->slots * sizeof *p->ring);
    avrogen_alloc alloc = p->alloc;
    avrogen_free(&alloc, p, sizeof *p);
}

ocf_job *ocf_pool_next(ocf_pool *p)
{
    /* Only the owner moves submitted and retired: no lock needed to read them. */
    if (p->submitted - p->retired == p->slots)
        return NULL;
    return &p->ring[p->submitted % p->slots];
}

void ocf_pool_submit(ocf_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->ring[p->submitted % p->slots].state = JOB_QUEUED;
    p->submitted++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

ocf_job *ocf_pool_oldest(ocf_pool *p)
{
    if (p->submitted == p->retired)
        return NULL;
    ocf_job *j = &p->ring[p->retired % p->slots];
    pthread_mutex_lock(&p->mu);
    while (j->state != JOB_DONE)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return j;
}

ocf_job *ocf_pool_oldest_done(ocf_pool *p)
{
    if (p->submitted == p->retired)
        return NULL;
    ocf_job *j = &p->ring[p->retired % p->slots];
    pthread_mutex_lock(&p->mu);
    bool done = j->state == JOB_DONE;
    pthread_mutex_unlock(&p->mu);
    return done ? j : NULL;
}

void ocf_pool_retire(ocf_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->ring[p->retired % p->slots].state = JOB_FREE;
    p->retired++;
    pthread_mutex_unlock(&p->mu);
}

size_t ocf_pool_in_flight(const ocf_pool *p)
{
    return (size_t)(p->submitted - p->retired);
}

size_t ocf_pool_slots(const ocf_pool *p)
{
    return p->slots;
}

const ocf_job *ocf_pool_peek(const ocf_pool *p, size_t i)
{
    return &p->ring[(p->retired + i) % p->slots];
}
