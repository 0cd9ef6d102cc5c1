/* card_file.c - scorecard files: a small JSON object (format in README.md).
 *
 *   {"rules": "yahtzee", "boxes": {"aces": 3, "fives": 15, "chance": null}, "yahtzee_bonus": 0}
 *
 * A box missing or null is open. Limits: the file is at most YZ_CARD_MAX_BYTES, and jansson
 * refuses nesting deeper than its own limit; anything but the keys above is refused. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define YZ_CARD_MAX_BYTES (64 * 1024)

static int read_small_file(const char *path, char **text, size_t *len, yz_cli_error *error)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(file), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(file);
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: not a regular file", path);
    }
    if (st.st_size > YZ_CARD_MAX_BYTES) {
        fclose(file);
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: %lld bytes, more than the %d a card may have", path,
                                (long long)st.st_size, YZ_CARD_MAX_BYTES);
    }
    *text = yz_cli_alloc((size_t)st.st_size + 1);
    if (!*text) {
        fclose(file);
        return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "%s: out of memory", path);
    }
    *len = fread(*text, 1, (size_t)st.st_size, file);
    fclose(file);
    return YZ_EXIT_OK;
}

static int read_boxes(const char *path, json_t *boxes, const yz_profile *profile, yz_card *card,
                      yz_cli_error *error)
{
    if (!json_is_object(boxes))
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: \"boxes\" must be an object", path);
    const char *name;
    json_t *value;
    json_object_foreach(boxes, name, value)
    {
        yz_box box;
        yz_rules_error err;
        if (yz_rules_box_parse(profile, name, &box, &err) != YZ_OK)
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: boxes.%s: not a box of the %s rules",
                                    path, name, profile->name);
        if (json_is_null(value)) continue;
        if (!json_is_integer(value))
            return yz_cli_set_error(error, YZ_EXIT_DATA,
                                    "%s: boxes.%s: must be a whole number or null", path, name);
        json_int_t points = json_integer_value(value);
        if (points < -1000 || points > 1000)
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: boxes.%s: no roll scores %lld there",
                                    path, name, (long long)points);
        if (yz_rules_card_set(profile, card, box, (int)points, &err) != YZ_OK)
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: %s", path, err.message);
    }
    return YZ_EXIT_OK;
}

static int read_card_json(const char *path, json_t *root, const yz_profile **profile, yz_card *card,
                          yz_cli_error *error)
{
    if (!json_is_object(root))
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: a card must be a JSON object", path);
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value)
    {
        if (strcmp(key, "rules") != 0 && strcmp(key, "boxes") != 0 &&
            strcmp(key, "yahtzee_bonus") != 0)
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: unknown key \"%s\"", path, key);
    }
    json_t *rules = json_object_get(root, "rules");
    if (rules) {
        const yz_profile *card_profile =
            json_is_string(rules) ? yz_rules_profile_find(json_string_value(rules)) : NULL;
        if (!card_profile)
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: rules: not a known rules name", path);
        if (*profile && *profile != card_profile)
            return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: a card for the %s rules, not %s",
                                    path, card_profile->name, (*profile)->name);
        *profile = card_profile;
    }
    if (!*profile) *profile = yz_rules_profile_default();
    json_t *boxes = json_object_get(root, "boxes");
    if (boxes) {
        int code = read_boxes(path, boxes, *profile, card, error);
        if (code != YZ_EXIT_OK) return code;
    }
    json_t *bonus = json_object_get(root, "yahtzee_bonus");
    if (bonus) {
        if (!json_is_integer(bonus) || json_integer_value(bonus) < 0 ||
            json_integer_value(bonus) > 13)
            return yz_cli_set_error(error, YZ_EXIT_DATA,
                                    "%s: yahtzee_bonus: must be a count from 0 to 13", path);
        card->extra_yahtzees = (int16_t)json_integer_value(bonus);
    }
    yz_rules_error err;
    if (yz_rules_card_check(*profile, card, &err) != YZ_OK)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: %s", path, err.message);
    return YZ_EXIT_OK;
}

int yz_cli_read_card(const char *path, const yz_profile **profile, yz_card *card,
                     yz_cli_error *error)
{
    yz_cli_install_json_allocator();
    char *text = NULL;
    size_t len = 0;
    int code = read_small_file(path, &text, &len, error);
    if (code != YZ_EXIT_OK) return code;
    /* jansson's own message for a BOM quotes the invisible bytes. */
    int has_bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
    json_error_t json_err;
    long failures_before = yz_cli_allocation_failures();
    yz_cli_json_parsing(1);
    json_t *root = has_bom ? NULL : json_loadb(text, len, JSON_REJECT_DUPLICATES, &json_err);
    yz_cli_json_parsing(0);
    yz_cli_free(text);
    if (has_bom)
        return yz_cli_set_error(error, YZ_EXIT_DATA,
                                "%s: starts with a byte order mark (save it as UTF-8 without BOM)",
                                path);
    /* jansson reports some of its failed allocations as syntax errors, or not at all. */
    if (!root && yz_cli_allocation_failures() != failures_before)
        return yz_cli_set_error(error, YZ_EXIT_INTERNAL, "%s: out of memory", path);
    if (!root)
        return yz_cli_set_error(error, YZ_EXIT_DATA, "%s: line %d: %s", path, json_err.line,
                                json_err.text);
    yz_rules_card_init(card);
    code = read_card_json(path, root, profile, card, error);
    json_decref(root);
    return code;
}
