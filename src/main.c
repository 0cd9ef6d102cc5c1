/* main.c - yardzee: read dice from a lawn photo and score them. One file per subcommand. */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "vision.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"score", yz_cmd_score, "score --roll 5,2,5,6,5 [--rules P] [--card CARD.json] [--json]"},
    {"advise", yz_cmd_advise,
     "advise --roll 1,3,3,4,6 --throws-left 2 [--rules P] [--card CARD.json] [--json]"},
    {"strategy", yz_cmd_strategy, "strategy [--rules P] [--json]   solve a profile, time it"},
    {"rules", yz_cmd_rules, "rules [PROFILE]   list the rules, or one profile's boxes"},
    {"read", yz_cmd_read,
     "read PHOTO [--json] [--annotate OUT.png] [--expect 5|any]   dice in a photo"},
    {"batch", yz_cmd_batch,
     "batch (DIR | PHOTO)... [--jobs N] [--csv OUT.csv] [--json OUT.json] [--rules P] [--resume]"},
    {"verify", yz_cmd_verify,
     "verify PHOTO --claim 5,5,5,2,4 [--annotate OUT.png]   settle a disputed roll"},
    {"game", yz_cmd_game,
     "game new|throw|keep|score|show|undo|review ...   keep a whole game (yardzee game --help)"},
    {"serve", yz_cmd_serve,
     "serve [--port 8080] [--bind ADDR] [--rules P] [--game GAME.json]   a page for phones at the "
     "lawn"},
    {"eval", yz_cmd_eval,
     "eval --truth TRUTH.csv DIR [--expect 5|any] [--json]   measure the reader on known photos"},
};

static void usage(FILE *out)
{
    fputs("usage: yardzee PHOTO [--rules P] [--card CARD.json] [--throws-left N] [--annotate "
          "OUT.png]\n"
          "       yardzee COMMAND [OPTIONS]   (yardzee COMMAND --help for more)\n"
          "       yardzee --version\n\n",
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  yardzee %s\n", commands[i].summary);
    fputs("\nexit status: 0 ok, 1 bad data (a file or value), 2 usage, 3 photo refused (dice not\n"
          "read with confidence), 4 verify: not the claimed roll, 5 eval requirement not met, 70 "
          "internal error\n",
          out);
}

/* argv[1] is neither a command nor a file: a path that does not exist says so (naming a file of
 * that name in another case, as a phone names LAWN_004.JPG), a near miss of a command gets "did
 * you mean", as git does. */
static int not_a_command(const char *word)
{
    const char *dot = strrchr(word, '.');
    if (strchr(word, '/') || (dot && dot != word && dot[1])) {
        char dir_copy[4096], base_copy[4096];
        snprintf(dir_copy, sizeof dir_copy, "%s", word);
        snprintf(base_copy, sizeof base_copy, "%s", word);
        const char *dir = dirname(dir_copy), *base = basename(base_copy);
        DIR *d = opendir(dir);
        struct dirent *entry;
        while (d && (entry = readdir(d)))
            if (strcasecmp(entry->d_name, base) == 0) {
                fprintf(stderr, "yardzee: %s: no such file (did you mean %s%s%s?)\n", word,
                        strcmp(dir, ".") == 0 && !strchr(word, '/') ? "" : dir,
                        strcmp(dir, ".") == 0 && !strchr(word, '/') ? "" : "/", entry->d_name);
                closedir(d);
                return YZ_EXIT_DATA;
            }
        if (d) closedir(d);
        fprintf(stderr, "yardzee: %s: no such file\n", word);
        return YZ_EXIT_DATA;
    }
    const char *nearest = NULL;
    int nearest_distance = 3;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        int distance = yz_rules_name_distance(word, commands[i].name);
        if (distance < nearest_distance) nearest = commands[i].name, nearest_distance = distance;
    }
    if (nearest && nearest_distance <= (strlen(word) <= 4 ? 1 : 2))
        fprintf(stderr, "yardzee: unknown command '%s'; did you mean '%s'? (see: yardzee --help)\n",
                word, nearest);
    else
        fprintf(stderr, "yardzee: unknown command '%s' (see: yardzee --help)\n", word);
    return YZ_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    yz_vision_reuse_memory(); /* batch, serve and eval read photo after photo */
    if (argc < 2) {
        usage(stderr);
        return YZ_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return YZ_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("yardzee %s\n", YZ_VERSION);
        return YZ_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    /* Anything else that names a file is a photo: `yardzee PHOTO` reads it and advises. */
    if (argv[1][0] != '-' && access(argv[1], F_OK) == 0) return yz_cmd_snap(argc, argv);
    return not_a_command(argv[1]);
}
