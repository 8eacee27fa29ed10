import LayoutBenchCLI

// `LayoutBenchTestbed`: `layoutbench` with the backends that trap or hang on purpose, for the
// runner's isolation tests. Its fuzz workers re-execute this binary (/proc/self/exe), so they
// have the same backends.
LayoutBench.main(addingBackends: TestOnlyBackends.all)
