/// A report part that records the SHA-256 of its own content when written, so that
/// `report merge` can refuse a copy edited since (or two different copies of one shard).
///
/// The conformers differ only in what their digest leaves out (``digestedContent``); the
/// digest and its stamping are the same for all, here.
public protocol ContentDigested: Encodable {
    /// SHA-256 (hex) of ``digestedContent`` as written; nil in an unstamped value (and in
    /// reports written before digests were recorded).
    var digest: String? { get set }

    /// What the digest covers: the value with `digest` cleared, and with whatever differs
    /// between equal runs (wall times) reset.
    var digestedContent: Self { get }
}

extension ContentDigested {
    /// By default the digest covers everything but `digest` itself.
    public var digestedContent: Self {
        var content = self
        content.digest = nil
        return content
    }

    /// The digest of ``digestedContent`` (sorted-key JSON, so dictionary order does not matter).
    public var contentDigest: String { SHA256.canonicalDigest(of: digestedContent) }

    /// The value with its digest recorded.
    public func withDigest() -> Self {
        var stamped = self
        stamped.digest = contentDigest
        return stamped
    }
}
