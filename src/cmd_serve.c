/* cmd_serve.c - `yardzee serve`: the phones at the lawn read photos and keep the game through a
 * small web server (GNU libmicrohttpd; the API is in serve_api.c, the page in serve_page.c).
 * It prints the address to open, a QR code of it and the join code that changing the game needs. */
#define _DEFAULT_SOURCE /* getifaddrs, IFF_UP */
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <qrencode.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game_file.h"
#include "serve.h"

#define CONNECTION_LIMIT 32           /* phones at one lawn, with room for slow uploads */
#define CONNECTION_TIMEOUT_SECONDS 30 /* a connection idle this long is closed */

static const char serve_help[] =
    "usage: yardzee serve [--port 8080] [--bind ADDR] [--rules P] [--game GAME.json]\n"
    "                     [--request-timeout 60]\n"
    "Serves a page for phones on the local network: take a photo of the dice, see the roll\n"
    "and the advice, record throws and scores in the game file (`yardzee game new` starts one).\n"
    "Prints the address, a QR code of it and a join code: changing the game needs the code.\n"
    "The code is saved in the game file (the same after a restart); the QR code carries it.\n"
    "--port 0 picks a free port. --bind takes an IPv4 address of this machine (default\n"
    "0.0.0.0, every interface; IPv6 is not supported). --request-timeout S drops a request\n"
    "whose body has not arrived whole S seconds after its headers. Ctrl-C stops it.\n";

typedef struct {
    int port;
    unsigned request_timeout;
    const char *bind, *rules, *game;
    struct in_addr bind_address;
} serve_args;

static int parse_serve_args(int argc, char **argv, serve_args *args)
{
    static const struct option long_options[] = {{"port", required_argument, NULL, 'p'},
                                                 {"bind", required_argument, NULL, 'b'},
                                                 {"rules", required_argument, NULL, 'R'},
                                                 {"game", required_argument, NULL, 'g'},
                                                 {"request-timeout", required_argument, NULL, 't'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {NULL, 0, NULL, 0}};
    args->port = 8080;
    args->request_timeout = YZ_SERVE_REQUEST_TIMEOUT_SECONDS;
    args->bind = "0.0.0.0";
    args->rules = args->game = NULL;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        char *end;
        switch (opt) {
        case 'p':
            args->port = (int)strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || args->port < 0 || args->port > 65535)
                return yz_cli_fail(YZ_EXIT_USAGE, "--port: '%s' is not a port 0-65535", optarg);
            break;
        case 'b': args->bind = optarg; break;
        case 't': {
            long seconds = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || seconds < 1 || seconds > 3600)
                return yz_cli_fail(YZ_EXIT_USAGE, "--request-timeout: '%s' is not 1-3600 seconds",
                                   optarg);
            args->request_timeout = (unsigned)seconds;
            break;
        }
        case 'R': args->rules = optarg; break;
        case 'g': args->game = optarg; break;
        case 'h': fputs(serve_help, stdout); return -1;
        case ':': return yz_cli_fail(YZ_EXIT_USAGE, "serve: %s needs a value", argv[optind - 1]);
        default: return yz_cli_fail(YZ_EXIT_USAGE, "serve: unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return yz_cli_fail(YZ_EXIT_USAGE, "serve: unexpected argument '%s'", argv[optind]);
    if (inet_pton(AF_INET, args->bind, &args->bind_address) != 1)
        return yz_cli_fail(YZ_EXIT_USAGE,
                           "--bind: '%s' is not an IPv4 address like 192.168.1.20 (IPv6 is not "
                           "supported)",
                           args->bind);
    return YZ_EXIT_OK;
}

/* Six characters a person can read aloud: no 0/O or 1/I. */
static int make_join_code(char code[YZ_SERVE_CODE_LEN + 1])
{
    static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; /* 32: no modulo bias */
    unsigned char bytes[YZ_SERVE_CODE_LEN];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    int ok = fd >= 0 && read(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes;
    if (fd >= 0) close(fd);
    if (!ok) return yz_cli_fail(YZ_EXIT_INTERNAL, "/dev/urandom: cannot read a join code");
    for (int i = 0; i < YZ_SERVE_CODE_LEN; i++)
        code[i] = alphabet[bytes[i] & 31];
    code[YZ_SERVE_CODE_LEN] = '\0';
    return YZ_EXIT_OK;
}

/* The address phones should open: the bound one, or for 0.0.0.0 the first LAN address. */
static void page_host(const char *bind, char *host, size_t size)
{
    snprintf(host, size, "%s", strcmp(bind, "0.0.0.0") == 0 ? "127.0.0.1" : bind);
    struct ifaddrs *list;
    if (strcmp(bind, "0.0.0.0") != 0 || getifaddrs(&list) != 0) return;
    for (struct ifaddrs *at = list; at; at = at->ifa_next) {
        if (!at->ifa_addr || at->ifa_addr->sa_family != AF_INET || (at->ifa_flags & IFF_LOOPBACK) ||
            !(at->ifa_flags & IFF_UP))
            continue;
        inet_ntop(AF_INET, &((struct sockaddr_in *)at->ifa_addr)->sin_addr, host, (socklen_t)size);
        break;
    }
    freeifaddrs(list);
}

/* The QR code in Unicode half blocks, two rows of modules per line. Light modules are drawn,
 * so it reads right on a dark terminal (phone cameras read the inverse as well). */
static void print_qr(const char *text)
{
    QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
    if (!qr) return;
    const int width = qr->width, quiet = 2;
#define DARK(x, y)                                                                                 \
    ((x) >= 0 && (y) >= 0 && (x) < width && (y) < width && (qr->data[(y)*width + (x)] & 1))
    for (int y = -quiet; y < width + quiet; y += 2) {
        fputs("  ", stdout);
        for (int x = -quiet; x < width + quiet; x++) {
            int top = DARK(x, y), bottom = DARK(x, y + 1);
            fputs(!top && !bottom ? "\u2588" : !top ? "\u2580" : !bottom ? "\u2584" : " ", stdout);
        }
        fputc('\n', stdout);
    }
#undef DARK
    QRcode_free(qr);
}

static void remove_photo_dir(const char *dir)
{
    DIR *folder = opendir(dir);
    if (!folder) return;
    char path[128];
    for (struct dirent *entry; (entry = readdir(folder));) {
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%.60s", dir, entry->d_name);
        unlink(path);
    }
    closedir(folder);
    rmdir(dir);
}

/* The highest N of the game's "upload-N" photos: new photos are numbered after it, so a photo
 * of this server is never taken for one recorded before a restart. */
static unsigned last_photo_id(const json_t *moves)
{
    unsigned last = 0;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const char *photo = json_string_value(json_object_get(json_array_get(moves, i), "photo"));
        unsigned id;
        if (photo && sscanf(photo, "upload-%u", &id) == 1 && id > last) last = id;
    }
    return last;
}

/* The rules: the game's, else --rules, else the default. With a game, its join code (one is
 * made and saved with the game the first time, so a restart asks for the same one). */
static int choose_profile(const serve_args *args, yz_serve *server)
{
    server->profile = args->rules ? yz_rules_profile_find(args->rules) : yz_rules_profile_default();
    if (!server->profile)
        return yz_cli_fail(YZ_EXIT_USAGE, "--rules: unknown rules '%s' (see: yardzee rules)",
                           args->rules);
    if (!args->game) return YZ_EXIT_OK;
    yz_game_file file;
    yz_cli_error error;
    int code = yz_game_file_load(args->game, &file, &error);
    if (code != YZ_EXIT_OK) return yz_cli_report(&error);
    if (args->rules && file.game.profile != server->profile)
        code = yz_cli_fail(YZ_EXIT_USAGE, "%s: a game of %s rules, not %s", args->game,
                           file.game.profile->name, args->rules);
    server->profile = file.game.profile;
    server->next_id = last_photo_id(file.moves);
    if (code == YZ_EXIT_OK && file.join_code[0]) {
        memcpy(server->join_code, file.join_code, sizeof server->join_code);
    } else if (code == YZ_EXIT_OK && (code = make_join_code(server->join_code)) == YZ_EXIT_OK) {
        memcpy(file.join_code, server->join_code, sizeof file.join_code);
        if ((code = yz_game_file_save(&file, args->game, &error)) != YZ_EXIT_OK)
            yz_cli_report(&error);
    }
    yz_game_file_free(&file);
    return code;
}

static int run(const serve_args *args, yz_serve *server)
{
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)args->port);
    address.sin_addr = args->bind_address;

    /* SIGINT and SIGTERM wait for sigwait below; the server's threads inherit the mask. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL,
        yz_serve_handle, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTION_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)CONNECTION_TIMEOUT_SECONDS, MHD_OPTION_NOTIFY_COMPLETED, yz_serve_request_done,
        server, MHD_OPTION_END);
    if (!daemon)
        return yz_cli_fail(YZ_EXIT_DATA,
                           "%s:%d: cannot listen there (in use, or not this machine's address)",
                           args->bind, args->port);
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    char host[INET_ADDRSTRLEN], url[100], link[120];
    page_host(args->bind, host, sizeof host);
    snprintf(url, sizeof url, "http://%s:%u/", host, info ? info->port : (unsigned)args->port);
    /* With a game, the QR code carries the join code: a scan joins. */
    snprintf(link, sizeof link, "%s%s%s", url, args->game ? "?code=" : "",
             args->game ? server->join_code : "");

    printf("yardzee is serving %s rules%s%s.\nOpen %s on a phone on this network, or scan:\n\n",
           server->profile->name, args->game ? ", game " : "", args->game ? args->game : "", url);
    print_qr(link);
    printf("\nJoin code: %s (needed to record throws and scores; the QR code carries it)\n"
           "Ctrl-C stops the server.\n",
           server->join_code);
    fflush(stdout);

    int signal_number;
    sigwait(&stop_signals, &signal_number);
    MHD_stop_daemon(daemon);
    printf("Stopped.\n");
    return YZ_EXIT_OK;
}

int yz_cmd_serve(int argc, char **argv)
{
    serve_args args;
    int code = parse_serve_args(argc, argv, &args);
    if (code != YZ_EXIT_OK) return code < 0 ? YZ_EXIT_OK : code;
    yz_serve *server = calloc(1, sizeof *server);
    if (!server) return yz_cli_fail(YZ_EXIT_INTERNAL, "out of memory");
    server->game_path = args.game;
    server->request_timeout = args.request_timeout;
    code = choose_profile(&args, server);
    if (code == YZ_EXIT_OK && !server->join_code[0]) code = make_join_code(server->join_code);
    if (code == YZ_EXIT_OK && !(server->strategy = yz_cli_strategy(server->profile)))
        code = YZ_EXIT_INTERNAL;
    const char *tmpdir = getenv("TMPDIR");
    snprintf(server->photo_dir, sizeof server->photo_dir, "%.40s/yardzee-serve-XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (code == YZ_EXIT_OK && !mkdtemp(server->photo_dir))
        code =
            yz_cli_fail(YZ_EXIT_DATA, "%s: cannot make a folder for the photos", server->photo_dir);
    if (code == YZ_EXIT_OK) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        pthread_mutex_init(&server->game_lock, NULL);
        pthread_mutex_init(&server->reads_lock, NULL);
        pthread_mutex_init(&server->buffers_lock, NULL);
        if (cores < 1) cores = 2;
        sem_init(&server->readers, 0,
                 (unsigned)(cores < YZ_SERVE_MAX_READERS ? cores : YZ_SERVE_MAX_READERS));
        code = run(&args, server);
        while (server->n_idle_nets)
            yz_vision_nets_free(server->idle_nets[--server->n_idle_nets]);
        sem_destroy(&server->readers);
        pthread_mutex_destroy(&server->buffers_lock);
        pthread_mutex_destroy(&server->reads_lock);
        pthread_mutex_destroy(&server->game_lock);
        remove_photo_dir(server->photo_dir);
    }
    yz_strategy_free(server->strategy);
    free(server);
    return code;
}
