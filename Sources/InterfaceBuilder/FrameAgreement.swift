import LayoutModel

/// UIKit's pixel rounding of a laid-out frame: the edges (not the size) go to the nearest
/// pixel of the device scale, so adjacent views stay flush. Frames are relative to the
/// parent, as UIKit sets `frame`.
public enum PixelRounding {
    /// `[x, y, width, height]` with x, y, maxX and maxY rounded to multiples of 1/scale
    /// (halves away from zero, as `round` does).
    public static func round(_ frame: [Double], scale: Double) -> [Double] {
        guard frame.count == 4, scale > 0 else { return frame }
        func r(_ v: Double) -> Double { (v * scale).rounded(.toNearestOrAwayFromZero) / scale }
        let x = r(frame[0])
        let y = r(frame[1])
        return [x, y, r(frame[0] + frame[2]) - x, r(frame[1] + frame[3]) - y]
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
        let frames: [[Double]] = system.frames(values: solution.values, global: false)
        let names = ["x", "y", "width", "height"]
        for index in 1..<system.items.count {
            let name = system.items[index].name
            guard let expected = layout.expectedFrames[name] else { continue }
            let rounded = PixelRounding.round(frames[index - 1], scale: layout.device.scale)
            for (k, value) in expected.enumerated() {
                guard let value else { continue }
                compared += 1
                if abs(rounded[k] - value) > tolerance {
                    mismatches.append("\(name).\(names[k]) = \(ImportedLayout.number(rounded[k])), stored \(ImportedLayout.number(value))")
                }
            }
        }
    }
}
