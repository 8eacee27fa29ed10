import Foundation

/// A report read from disk: whichever of the two documents its `schema` field names.
public enum ReportDocument: Sendable, Hashable {
    case bench(BenchReport)
    case fuzz(FuzzReport)

    /// The document's `schema` name.
    public var schema: String {
        switch self {
        case .bench(let report): report.schema
        case .fuzz(let report): report.schema
        }
    }

    /// `bench` or `fuzz`, for messages.
    public var kindName: String {
        switch self {
        case .bench: "bench"
        case .fuzz: "fuzz"
        }
    }

    /// Reads a report, dispatching on `schema` and refusing other major versions.
    ///
    /// The header (`schema`, `version`) is read first, so that a document from a newer
    /// `layoutbench` gets "version 2 is not supported" rather than a field-level decoding error.
    public static func decode(_ data: Data) throws(ReportDocumentError) -> ReportDocument {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw .notJSON(Self.describe(error))
        }
        guard let schema = header.schema else { throw .missingSchema }
        guard schema == ReportSchema.benchName || schema == ReportSchema.fuzzName else {
            throw .unknownSchema(schema)
        }
        guard let version = header.version else { throw .missingVersion(schema: schema) }
        let supported = schema == ReportSchema.benchName ? ReportSchema.version : ReportSchema.fuzzVersion
        guard version == supported || (schema == ReportSchema.fuzzName && ReportSchema.migratedFuzzVersions.contains(version)) else {
            throw .unsupportedVersion(schema: schema, found: version, supported: supported)
        }
        do {
            if schema == ReportSchema.benchName {
                return .bench(try JSONDecoder().decode(BenchReport.self, from: data))
            }
            var report = try JSONDecoder().decode(FuzzReport.self, from: data)
            // Version 1 had no verdicts: every finding and signature reads as wrong, which is
            // what version 2 means by a signature without `@VERDICT`.
            report.version = ReportSchema.fuzzVersion
            return .fuzz(report)
        } catch {
            throw .malformed(schema: schema, reason: Self.describe(error))
        }
    }

    /// The document as `bench` and `fuzz` write it: pretty-printed with sorted keys, so that
    /// two runs' files diff line by line.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        switch self {
        case .bench(let report): return try encoder.encode(report)
        case .fuzz(let report): return try encoder.encode(report)
        }
    }

    /// Only the fields that decide how to read the rest; a wrongly typed `schema` reads as
    /// missing, which gives the clearer message.
    private struct Header: Decodable {
        var schema: String?
        var version: Int?

        private enum CodingKeys: String, CodingKey { case schema, version }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            schema = try? container.decode(String.self, forKey: .schema)
            version = try? container.decode(Int.self, forKey: .version)
        }
    }

    /// A decoding error as one line naming the field, e.g. `results[3].timing.p50: expected a number`.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the document" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(path(context.codingPath)): \(underlying ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// Why a file is not a report this version of `layoutbench` can read.
public enum ReportDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON, or not a JSON object.
    case notJSON(String)
    /// A JSON object without a `schema` string.
    case missingSchema
    /// A `schema` other than `layoutbench.bench` and `layoutbench.fuzz`.
    case unknownSchema(String)
    /// A known `schema` without an integer `version`.
    case missingVersion(schema: String)
    /// A major version this reader does not know.
    case unsupportedVersion(schema: String, found: Int, supported: Int)
    /// The right schema and version, but a field is missing or has the wrong type.
    case malformed(schema: String, reason: String)

    /// One line naming what is wrong, for `PATH: message` on standard error.
    public var description: String {
        switch self {
        case .notJSON(let reason):
            "not a layoutbench report (not a JSON object: \(reason))"
        case .missingSchema:
            "not a layoutbench report (no \"schema\" field; expected \"\(ReportSchema.benchName)\" or \"\(ReportSchema.fuzzName)\")"
        case .unknownSchema(let schema):
            "unknown report schema \"\(schema)\"; expected \"\(ReportSchema.benchName)\" or \"\(ReportSchema.fuzzName)\""
        case .missingVersion(let schema):
            "\(schema) report without a \"version\" field"
        case .unsupportedVersion(let schema, let found, let supported):
            "\(schema) version \(found) is not supported (this layoutbench reads version \(supported)); use a matching layoutbench"
        case .malformed(let schema, let reason):
            "malformed \(schema) report: \(reason)"
        }
    }
}
