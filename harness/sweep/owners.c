#include "harness/sweep/owners.h"

#include <string.h>

cJSON *owner_json(const char *name, const char *def)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "definition", def);
    return o;
}

static bool is_owner(const cJSON *o, const char *name, const char *def)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name"), *d = cJSON_GetObjectItemCaseSensitive(o, "definition");
    return cJSON_IsString(n) && cJSON_IsString(d) && strcmp(n->valuestring, name) == 0 &&
           strcmp(d->valuestring, def) == 0;
}

bool owners_has(const cJSON *point, const char *name, const char *def)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(point, "sweeps"))
    {
        if (is_owner(o, name, def))
            return true;
    }
    return false;
}

bool owners_add(cJSON *point, const char *name, const char *def)
{
    if (owners_has(point, name, def))
        return false;
    cJSON *list = cJSON_GetObjectItemCaseSensitive(point, "sweeps");
    if (!cJSON_IsArray(list)) {
        cJSON_DeleteItemFromObjectCaseSensitive(point, "sweeps");
        list = cJSON_AddArrayToObject(point, "sweeps");
    }
    cJSON_AddItemToArray(list, owner_json(name, def));
    return true;
}

int owners_remove(cJSON *point, const char *name, const char *def)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(point, "sweeps");
    int i = 0;
    for (cJSON *o = list ? list->child : NULL; o; i++) {
        cJSON *next = o->next;
        if (is_owner(o, name, def)) {
            cJSON_DeleteItemFromArray(list, i);
            i--;
        }
        o = next;
    }
    return cJSON_GetArraySize(list);
}

void owners_merge_others(cJSON *to, const cJSON *from, const char *name, const char *def)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(to, "sweeps");
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(from, "sweeps"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name"),
                    *d = cJSON_GetObjectItemCaseSensitive(o, "definition");
        if (list && cJSON_IsString(n) && cJSON_IsString(d) && !is_owner(o, name, def))
            cJSON_AddItemToArray(list, owner_json(n->valuestring, d->valuestring));
    }
}
