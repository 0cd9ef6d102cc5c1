/* fuzz_json_files.c - libFuzzer target: any bytes as a scorecard file and as a game file.
 * The readers take a path, so the input goes through a temporary file. Their one-line errors
 * would slow the fuzzer: tools/fuzz.sh runs it with -close_fd_mask=2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "game_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/yz-fuzz-%ld.json", (long)getpid());
    FILE *file = fopen(path, "wb");
    if (!file) return 0;
    fwrite(data, 1, size, file);
    fclose(file);
    const yz_profile *profile = NULL;
    yz_card card;
    yz_cli_error error;
    yz_cli_read_card(path, &profile, &card, &error);
    yz_game_file game;
    if (yz_game_file_load(path, &game, &error) == YZ_EXIT_OK) yz_game_file_free(&game);
    return 0;
}
