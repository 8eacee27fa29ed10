// The seeded generator lives in its own small module (SeededRandom) so that tests and tools
// that need only randomness do not depend on the families; every user of the generator
// gets it with `import Generator`, as before.
@_exported import SeededRandom
