/// A layout attribute of an item (NSLayoutConstraint.Attribute, less `notAnAttribute`).
public enum Attribute: String, Sendable, Hashable, CaseIterable, Codable {
    case left, right, top, bottom
    case leading, trailing
    case width, height
    case centerX, centerY
    case firstBaseline, lastBaseline
    case leftMargin, rightMargin, topMargin, bottomMargin
    case leadingMargin, trailingMargin
    case centerXWithinMargins, centerYWithinMargins

    /// The axis an attribute measures along.
    public enum Axis: Sendable, Hashable {
        case horizontal, vertical
    }

    /// Reads an attribute name as written in a file (`baseline` is `lastBaseline`).
    public init?(name: some StringProtocol) {
        if name == "baseline" { self = .lastBaseline; return }
        self.init(rawValue: String(name))
    }

    public var axis: Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX,
             .leftMargin, .rightMargin, .leadingMargin, .trailingMargin, .centerXWithinMargins:
            return .horizontal
        case .top, .bottom, .height, .centerY, .firstBaseline, .lastBaseline,
             .topMargin, .bottomMargin, .centerYWithinMargins:
            return .vertical
        }
    }

    /// Width and height; every other attribute is a position.
    public var isSize: Bool { self == .width || self == .height }

    /// Leading, trailing and their margins: these follow the layout direction.
    public var isDirectional: Bool {
        switch self {
        case .leading, .trailing, .leadingMargin, .trailingMargin: return true
        default: return false
        }
    }

    /// Left, right and their margins: these never follow the layout direction.
    public var isAbsoluteHorizontal: Bool {
        switch self {
        case .left, .right, .leftMargin, .rightMargin: return true
        default: return false
        }
    }
}

/// `==`, `<=` or `>=`.
public enum Relation: String, Sendable, Hashable, CaseIterable, Codable {
    case equal = "=="
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="

    /// The relation that holds after both sides are multiplied by -1.
    public var flipped: Relation {
        switch self {
        case .equal: return .equal
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThanOrEqual: return .lessThanOrEqual
        }
    }
}

/// `ltr` (the default) or `rtl`.
public enum LayoutDirection: String, Sendable, Hashable, Codable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}
