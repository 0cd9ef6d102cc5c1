/* fuzz_json_files.c - libFuzzer target: any bytes as a scorecard file and as a game file.
 * The readers take a path, so the input goes through a temporary file; their one-line errors
 * go to a closed stderr. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "game_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/yz-fuzz-%ld.json", (long)getpid());
        if (!freopen("/dev/null", "w", stderr)) return 0;
    }
    FILE *file = fopen(path, "wb");
    if (!file) return 0;
    fwrite(data, 1, size, file);
    fclose(file);
    const yz_profile *profile = NULL;
    yz_card card;
    yz_cli_read_card(path, &profile, &card);
    yz_game_file game;
    if (yz_game_file_load(path, &game) == YZ_EXIT_OK) yz_game_file_free(&game);
    return 0;
}
