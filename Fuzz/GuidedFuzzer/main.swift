// The coverage-guided fuzzer: libFuzzer drives, the GuidedFuzzing module decodes each input
// into a valid system and judges it with every in-process backend. Built only by
// scripts/fuzz-guided.sh (LAYOUTBENCH_FUZZ=1, `-sanitize=fuzzer`, scratch path .build-fuzz);
// the normal build does not know this target.
//
// Environment:
//   LAYOUTBENCH_GUIDED_MUTATOR  structural | bytes | mixed (default): who mutates inputs —
//                               the structural mutator, libFuzzer's byte mutator, or the
//                               structural one with one call in four left to libFuzzer's.
//   LAYOUTBENCH_PLANTED_FAULT   a planted fault's name (debug builds): the self-test.
//   LAYOUTBENCH_GUIDED_NO_ABORT set: report wrong findings but go on (coverage runs).
//   LAYOUTBENCH_GUIDED_KNOWN    colon-separated corpus paths (scripts/fuzz-guided.sh: Corpora):
//                               a wrong finding on an input that is one of their expected
//                               failures is known (`KnownFailures`), reported, and not fatal.
import BackendContract
import CFuzzerHooks
import Foundation
import GuidedFuzzing

enum Harness {
    static let judge = GuidedJudge(reduce: false)
    static let mutator = StructuralMutator()
    static let mode = ProcessInfo.processInfo.environment["LAYOUTBENCH_GUIDED_MUTATOR"] ?? "mixed"
    static let aborts = ProcessInfo.processInfo.environment["LAYOUTBENCH_GUIDED_NO_ABORT"] == nil
    static let known: KnownFailures = {
        let paths = (ProcessInfo.processInfo.environment["LAYOUTBENCH_GUIDED_KNOWN"] ?? "").split(separator: ":").map(String.init)
        do {
            return try KnownFailures(paths: paths)
        } catch {
            FileHandle.standardError.write(Data("guided-fuzzer: LAYOUTBENCH_GUIDED_KNOWN: \(error)\n".utf8))
            exit(2)
        }
    }()
    #if LAYOUTBENCH_FAULTS
    static let fault = ProcessInfo.processInfo.environment["LAYOUTBENCH_PLANTED_FAULT"].flatMap(PlantedFault.init(rawValue:))
    #endif

    /// Judges one input; a fatal finding is reported on standard error and aborts, which
    /// libFuzzer records as a crash with the input saved.
    static func test(_ bytes: [UInt8]) {
        let guided = GuidedCase(bytes: bytes)
        let seed = GuidedJudge.seed(of: bytes)
        #if LAYOUTBENCH_FAULTS
        var fatal = withFault(fault) { judge.firstFatal(guided, seed: seed, known: known) }
        // With a fault planted, only what the fault causes counts: a finding the backends
        // also show without it is not the self-test's.
        if fault != nil, fatal != nil, judge.firstFatal(guided, seed: seed, known: known) != nil { fatal = nil }
        #else
        let fatal = judge.firstFatal(guided, seed: seed, known: known)
        #endif
        guard let fatal else { return }
        let finding = fatal.occurrence.finding
        let message = """
            == layoutbench guided: \(finding.verdict.rawValue) \(finding.signature) on pass \(fatal.pass + 1)
            == \(finding.detail)
            == \(finding.verdictNote ?? "")
            \(fatal.system.canonicalText)
            """
        FileHandle.standardError.write(Data((message + "\n").utf8))
        if aborts { abort() }
    }
}

// libFuzzer's main (linked in by `-sanitize=fuzzer`) calls these two by their C names.

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    Harness.test(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    if Harness.mode == "bytes" || (Harness.mode == "mixed" && seed % 4 == 0) {
        return LLVMFuzzerMutate(data, size, maxSize)
    }
    let mutant = Harness.mutator.mutate(Array(UnsafeBufferPointer(start: data, count: size)), seed: UInt64(seed), maxSize: maxSize)
    mutant.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: mutant.count) }
    return mutant.count
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
