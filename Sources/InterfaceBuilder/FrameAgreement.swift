import LayoutModel

/// UIKit's pixel rounding of laid-out frames: every view's edges (not its size) go to the
/// nearest pixel of the device scale *in the window's coordinates*, so adjacent views stay
/// flush whatever their nesting; a frame is then the rounded rectangle less its parent's
/// rounded origin. (The corpus shows this: a label at 117.255 inside a stack at 116.49 is
/// stored 117 wide, which only rounding in window coordinates gives.) The root is taken
/// to sit on the pixel grid.
public enum PixelRounding {
    /// Rounds a value to a multiple of 1/scale (halves away from zero, as `round` does).
    public static func round(_ value: Double, scale: Double) -> Double {
        (value * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// `[x, y, width, height]` with x, y, maxX and maxY rounded to multiples of 1/scale.
    /// With `halvesUpward`, a half on the y axis goes to the smaller y (up the screen).
    public static func round(_ frame: [Double], scale: Double, halvesUpward: Bool = false) -> [Double] {
        guard frame.count == 4, scale > 0 else { return frame }
        func ry(_ v: Double) -> Double {
            halvesUpward ? (v * scale - 0.5).rounded(.up) / scale : round(v, scale: scale)
        }
        let x = round(frame[0], scale: scale)
        let y = ry(frame[1])
        return [x, y, round(frame[0] + frame[2], scale: scale) - x, ry(frame[1] + frame[3]) - y]
    }

    /// UIKit: every item's frame relative to its parent after rounding in root coordinates,
    /// from the root-coordinate frames of the items (`system.frames(values:global: true)`).
    public static func roundedFrames(of system: ConstraintSystem, globalFrames: [[Double]], scale: Double) -> [[Double]] {
        let rounded = globalFrames.map { round($0, scale: scale) }
        return system.items.indices.dropFirst().map { index in
            let frame = rounded[index - 1]
            guard let parent = system.items[index].parent, parent > 0 else { return frame }
            let origin = rounded[parent - 1]
            return [frame[0] - origin[0], frame[1] - origin[1], frame[2], frame[3]]
        }
    }

    /// IB for macOS: it lays out on the Mac's own grid and stores each frame in whole points
    /// in its superview's coordinates, rounding halves up there, and AppKit's y grows upwards
    /// unless the superview is flipped (the corpus shows a button at y 5.5 stored at 5 under
    /// a plain view, a label at 0.5 stored at 1 in a flipped table cell view).
    /// `upwardItems` are the items whose superview is not flipped.
    public static func appKitFrames(of system: ConstraintSystem, localFrames: [[Double]], scale: Double,
                                    upwardItems: Set<Int>) -> [[Double]] {
        system.items.indices.dropFirst().map { index in
            round(localFrames[index - 1], scale: scale, halvesUpward: upwardItems.contains(index))
        }
    }
}

/// How the Xcode that saved a file rounded the frames it stored, read from the document's
/// `toolsVersion` (Apple numbers its tools by Xcode release: 12xxx is Xcode 8, 13000–14299
/// Xcode 9, 14313 and on Xcode 10 and later).
public enum StoredFrameRounding: String, Sendable, Hashable, Codable {
    /// UIKit's rounding of edges on the device's pixels (``PixelRounding/roundedFrames(of:globalFrames:scale:)``).
    case devicePixels
    /// Xcode 9's iOS files hold frames of two kinds side by side: on the device's pixels, and
    /// on whole points with each of x, y, width and height rounded on its own, halves away from
    /// zero (the corpus's five Xcode 9 storyboards store 37.5 as 38, 166.5 as 167, a 269.6-point
    /// height as 270 at y 34 — an edge rounding would give 269 — next to views stored at 137.5
    /// and 42.5 in the same files; no file of another version stores a half pixel this way).
    /// Which kind a view got is not recorded (it depends on when IB last laid it out), so a
    /// component agrees when it equals either rounding.
    case devicePixelsOrWholePoints
    /// Xcode for macOS: whole points in the superview's AppKit coordinates
    /// (``PixelRounding/appKitFrames(of:localFrames:scale:upwardItems:)``).
    case appKitPoints

    /// The rounding of a document of this platform saved by this tools version (0: unknown).
    public static func of(platform: IBPlatform, toolsVersion: Double) -> StoredFrameRounding {
        if platform == .macOS { return .appKitPoints }
        return (13000..<14300).contains(toolsVersion) ? .devicePixelsOrWholePoints : .devicePixels
    }
}

/// How a solution's frames compare with the frames Xcode stored.
public struct FrameAgreement: Sendable, Hashable {
    /// `item.x = 12.5, stored 13` for every compared component that differs after rounding.
    public var mismatches: [String]
    /// How many frame components were compared.
    public var compared: Int

    public var agrees: Bool { mismatches.isEmpty }

    /// Compares the solution's frames, rounded to the device's pixels, with the stored ones
    /// (components stored as `nil` are not compared). An unsatisfiable or over-budget
    /// solution never agrees.
    public init(layout: ImportedLayout, solution: Solution, tolerance: Double = 1e-6) {
        mismatches = []
        compared = 0
        let system = layout.system
        guard solution.status == .optimal else {
            mismatches = ["status \(solution.status.rawValue)"
                + (solution.broken.isEmpty ? "" : ", broken \(solution.broken.map(system.constraintName).joined(separator: " "))")]
            return
        }
        guard solution.values.count == system.variableCount else {
            mismatches = ["\(solution.values.count) values for \(system.variableCount) unknowns"]
            return
        }
        let frames: [[Double]]
        var wholePoints: [[Double]]? = nil
        if layout.storedFrameRounding == .devicePixelsOrWholePoints {
            wholePoints = system.frames(values: solution.values, global: false).map { frame in
                frame.map { $0.rounded(.toNearestOrAwayFromZero) }
            }
        }
        if layout.platform == .macOS {
            let upward = Set(system.items.indices.filter { layout.yUpItems.contains(system.items[$0].name) })
            frames = PixelRounding.appKitFrames(of: system, localFrames: system.frames(values: solution.values, global: false),
                                                scale: layout.device.scale, upwardItems: upward)
        } else {
            frames = PixelRounding.roundedFrames(of: system, globalFrames: system.frames(values: solution.values, global: true),
                                                 scale: layout.device.scale)
        }
        let names = ["x", "y", "width", "height"]
        for index in 1..<system.items.count {
            let name = system.items[index].name
            guard let expected = layout.expectedFrames[name] else { continue }
            let rounded = frames[index - 1]
            for (k, value) in expected.enumerated() {
                guard let value else { continue }
                compared += 1
                if let whole = wholePoints, abs(whole[index - 1][k] - value) <= tolerance { continue }
                if abs(rounded[k] - value) > tolerance {
                    mismatches.append("\(name).\(names[k]) = \(ImportedLayout.number(rounded[k])), stored \(ImportedLayout.number(value))")
                }
            }
        }
    }
}
