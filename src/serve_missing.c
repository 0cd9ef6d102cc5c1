/* serve_missing.c - `yardzee serve` in a build without libmicrohttpd or libqrencode. */
#include "cli.h"

int yz_cmd_serve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return yz_cli_fail(YZ_EXIT_USAGE, "serve: this yardzee was built without libmicrohttpd and "
                                      "libqrencode (install them and build again)");
}
