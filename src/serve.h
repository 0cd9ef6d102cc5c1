/* serve.h - what `yardzee serve` (cmd_serve.c) shares with its request handler (serve_api.c). */
#ifndef YZ_SERVE_H
#define YZ_SERVE_H

#include <microhttpd.h>
#include <pthread.h>
#include <semaphore.h>

#include "cli.h"
#include "game_file.h"

#define YZ_SERVE_MAX_PHOTO_BYTES (30u * 1024u * 1024u) /* a 12 MP JPEG is 3-8 MB */
#define YZ_SERVE_MAX_JSON_BYTES (64u * 1024u)
/* Request bodies held in memory at once, over all connections: three photos at the size limit,
 * or a dozen or more phone photos. The connection limit times the photo limit would be ~1 GB. */
#define YZ_SERVE_MAX_BUFFERED_BYTES (96u * 1024u * 1024u)
#define YZ_SERVE_REQUEST_TIMEOUT_SECONDS 60 /* default of --request-timeout */
#define YZ_SERVE_N_KEPT_READS 16 /* annotated photos kept for GET /api/annotated/ID.jpg */
#define YZ_SERVE_MAX_READERS 8   /* photo readings at once: one per core, at most this */
#define YZ_SERVE_CODE_LEN YZ_GAME_CODE_LEN

/* One photo read by POST /api/read or /api/verify: its id names the annotated JPEG. */
typedef struct {
    unsigned id; /* 0: empty slot */
    int ok;      /* read with confidence: roll is the dice */
    yz_roll roll;
} yz_serve_read;

typedef struct {
    const char *game_path;     /* NULL: no game, only reading and verifying */
    const yz_profile *profile; /* the game's rules, or --rules */
    yz_strategy *strategy;     /* read-only once built, shared by every request */
    char join_code[YZ_SERVE_CODE_LEN + 1];
    char photo_dir[64];         /* private mkdtemp folder for the annotated JPEGs */
    pthread_mutex_t game_lock;  /* one game change (load, play, save) at a time */
    pthread_mutex_t reads_lock; /* next_id and reads[] */
    unsigned next_id;
    yz_serve_read reads[YZ_SERVE_N_KEPT_READS];
    sem_t readers; /* photo readings at once: one per core */
    /* Loaded nets not in use (under reads_lock): a reading takes one, or loads one when none is
     * idle, and gives it back; there are never more sets than readings at once. */
    yz_vision_nets *idle_nets[YZ_SERVE_MAX_READERS];
    int n_idle_nets;
    unsigned request_timeout;     /* seconds a request may take to arrive whole */
    pthread_mutex_t buffers_lock; /* buffered_bytes */
    size_t buffered_bytes;        /* request bodies in memory now, at most MAX_BUFFERED_BYTES */
} yz_serve;

/* The libmicrohttpd access handler (cls is the yz_serve) and its completion callback. */
enum MHD_Result yz_serve_handle(void *cls, struct MHD_Connection *connection, const char *url,
                                const char *method, const char *version, const char *upload_data,
                                size_t *upload_data_size, void **request_state);
void yz_serve_request_done(void *cls, struct MHD_Connection *connection, void **request_state,
                           enum MHD_RequestTerminationCode code);

/* The page's files (src/page/), embedded at build time by cmake/embed_page.cmake: served at
 * /NAME, index.html also at /. */
typedef struct {
    const char *name, *type;
    const unsigned char *data;
    size_t size;
} yz_serve_asset;
extern const yz_serve_asset yz_serve_assets[];
extern const int yz_serve_n_assets;

#endif
