import Foundation

/// A file-system error as `path: reason`, the reason from the underlying POSIX error when
/// there is one (`Not a directory`, `No space left on device`), instead of Foundation's raw
/// dump (`Error Domain=NSCocoaErrorDomain Code=512 "(null)" UserInfo={…}`) or its vague
/// "The file doesn't exist." for every failed write.
func fileErrorText(_ error: any Error, path fallback: String) -> String {
    let cocoa = error as NSError
    var path = fallback
    if let filePath = cocoa.userInfo[NSFilePathErrorKey] as? String { path = filePath }
    if let url = cocoa.userInfo[NSURLErrorKey] as? URL, url.isFileURL { path = url.path }
    var posix: Int32?
    if cocoa.domain == NSPOSIXErrorDomain { posix = Int32(truncatingIfNeeded: cocoa.code) }
    // On Linux the underlying error may be stored as a Swift `Error` that does not cast to
    // `NSError` directly: bridge it.
    if let stored = cocoa.userInfo[NSUnderlyingErrorKey], let underlying = (stored as? any Error).map({ $0 as NSError }),
        underlying.domain == NSPOSIXErrorDomain
    {
        posix = Int32(truncatingIfNeeded: underlying.code)
    }
    if let posix { return "\(path): \(String(cString: strerror(posix)))" }
    return "\(path): \(cocoa.localizedDescription)"
}
