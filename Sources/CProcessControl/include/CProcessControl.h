#ifndef LAYOUTBENCH_CPROCESSCONTROL_H
#define LAYOUTBENCH_CPROCESSCONTROL_H

/// Asks the kernel to send `signal` to this process when the thread that started it ends
/// (Linux's PR_SET_PDEATHSIG). Returns 0 on success, -1 where unsupported or on error.
/// A C wrapper because prctl(2) is variadic, which Swift cannot call.
int layoutbench_set_parent_death_signal(int signal);

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up
/// (glibc's posix_spawn_file_actions_addclosefrom_np, 2.34 and later). Returns 0 on
/// success, an error number otherwise (ENOSYS where the C library has no such action).
/// A C wrapper because the declaration is behind _GNU_SOURCE.
int layoutbench_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
