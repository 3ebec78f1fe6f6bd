/* Who a stored point belongs to: its "sweeps" list, the definitions (a name
 * and a definition path) that name it.  Shared by sweep and merge. */
#ifndef ANIMBENCH_OWNERS_H
#define ANIMBENCH_OWNERS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

cJSON *owner_json(const char *name, const char *def);
bool owners_has(const cJSON *point, const char *name, const char *def);
/* Adds the definition to the point's owners; true when it was not one. */
bool owners_add(cJSON *point, const char *name, const char *def);
/* Removes the definition from the point's owners; returns how many remain. */
int owners_remove(cJSON *point, const char *name, const char *def);
/* Adds the owners of `from`, other than the definition, to `to`'s. */
void owners_merge_others(cJSON *to, const cJSON *from, const char *name, const char *def);

#endif
