import LayoutBenchCLI

// The shipped `layoutbench`: the command line alone (the subcommands live in LayoutBenchCLI).
LayoutBench.main()
