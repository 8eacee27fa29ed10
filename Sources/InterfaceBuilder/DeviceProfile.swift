/// The screen an iOS file is designed on (`<device id="retina4_7" orientation="portrait">`),
/// or the Mac canvas: the scale frames are rounded to, the size classes variations are
/// chosen by, and the system insets safe areas and root-view margins come from.
public struct DeviceProfile: Sendable, Hashable, Codable {
    public enum SizeClass: String, Sendable, Hashable, Codable { case compact, regular }

    /// The device ID as written (`retina4_7`), or `mac`.
    public var id: String
    public var isLandscape: Bool
    /// Points per pixel: UIKit rounds frames to multiples of 1/scale.
    public var scale: Double
    /// The portrait screen in points.
    public var screenWidth: Double
    public var screenHeight: Double
    /// Status bar height (portrait) as IB simulates it; the safe area's top inset.
    public var statusBar: Double
    /// Home indicator inset at the bottom (0 on devices with a home button).
    public var homeIndicator: Double
    public var isPad: Bool

    /// IB's devices, portrait sizes in points. The status-bar heights are those of the iOS
    /// versions the Xcode that knows the device simulates.
    static let known: [String: DeviceProfile] = {
        func phone(_ id: String, _ w: Double, _ h: Double, scale: Double, status: Double, home: Double) -> DeviceProfile {
            DeviceProfile(id: id, isLandscape: false, scale: scale, screenWidth: w, screenHeight: h,
                          statusBar: status, homeIndicator: home, isPad: false)
        }
        func pad(_ id: String, _ w: Double, _ h: Double, status: Double, home: Double) -> DeviceProfile {
            DeviceProfile(id: id, isLandscape: false, scale: 2, screenWidth: w, screenHeight: h,
                          statusBar: status, homeIndicator: home, isPad: true)
        }
        let all = [
            phone("retina3_5", 320, 480, scale: 2, status: 20, home: 0),
            phone("retina4_0", 320, 568, scale: 2, status: 20, home: 0),
            phone("retina4_7", 375, 667, scale: 2, status: 20, home: 0),
            phone("retina5_5", 414, 736, scale: 3, status: 20, home: 0),
            phone("retina5_9", 375, 812, scale: 3, status: 44, home: 34),
            phone("retina6_1", 414, 896, scale: 2, status: 44, home: 34),
            phone("retina6_5", 414, 896, scale: 3, status: 44, home: 34),
            phone("retina5_4", 375, 812, scale: 3, status: 50, home: 34),
            phone("retina6_0", 390, 844, scale: 3, status: 47, home: 34),
            phone("retina6_12", 390, 844, scale: 3, status: 47, home: 34),
            phone("retina6_7", 428, 926, scale: 3, status: 47, home: 34),
            phone("retina6_72", 428, 926, scale: 3, status: 47, home: 34),
            phone("retina6_3", 402, 874, scale: 3, status: 62, home: 34),
            phone("retina6_9", 440, 956, scale: 3, status: 62, home: 34),
            pad("ipad9_7", 768, 1024, status: 20, home: 0),
            pad("ipad10_2", 810, 1080, status: 20, home: 0),
            pad("ipad10_5", 834, 1112, status: 20, home: 0),
            pad("ipad10_9", 820, 1180, status: 24, home: 20),
            pad("ipad11", 834, 1194, status: 24, home: 20),
            pad("ipad12_9", 1024, 1366, status: 20, home: 0),
            pad("ipad12_9rounded", 1024, 1366, status: 24, home: 20),
        ]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
    }()

    /// The Mac canvas: frames in whole points, no size classes, no safe areas.
    public static let mac = DeviceProfile(
        id: "mac", isLandscape: false, scale: 1, screenWidth: 0, screenHeight: 0,
        statusBar: 0, homeIndicator: 0, isPad: false)

    /// The profile for a `<device>` element's ID and orientation; nil for an unknown ID.
    public static func named(_ id: String, landscape: Bool) -> DeviceProfile? {
        guard var profile = known[id] else { return nil }
        profile.isLandscape = landscape
        return profile
    }

    /// The device Xcode assumed before files named one (Xcode 8's default, the 4.7" iPhone).
    public static let defaultPhone = known["retina4_7"]!

    public var isMac: Bool { id == "mac" }

    /// The width size class (iPhones are compact except the large ones in landscape).
    public var widthClass: SizeClass {
        if isPad { return .regular }
        return isLandscape && screenWidth >= 414 ? .regular : .compact
    }

    /// The height size class (iPhones in landscape are compact).
    public var heightClass: SizeClass {
        if isPad { return .regular }
        return isLandscape ? .compact : .regular
    }

    /// The minimum leading and trailing margins UIKit gives a view controller's root view
    /// (`systemMinimumLayoutMargins`): 16 on narrow views, 20 from 400 points up (the
    /// corpus has a 400-point freeform scene laid out with 20).
    public func systemMinimumSideMargin(forWidth width: Double) -> Double {
        width >= 400 ? 20 : 16
    }
}
