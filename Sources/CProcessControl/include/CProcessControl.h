#ifndef LAYOUTBENCH_CPROCESSCONTROL_H
#define LAYOUTBENCH_CPROCESSCONTROL_H

/// Asks the kernel to send `signal` to this process when the thread that started it ends
/// (Linux's PR_SET_PDEATHSIG). Returns 0 on success, -1 where unsupported or on error.
/// A C wrapper because prctl(2) is variadic, which Swift cannot call.
int layoutbench_set_parent_death_signal(int signal);

#endif
