/// Line metrics of the fonts IB files name, enough to place a text view's baselines.
///
/// Ratios are per point of size (the font's ascender and descender over its units per em):
/// San Francisco (the system font of iOS 9+ and macOS 10.11+) has ascender 1950/2048 and
/// descender 494/2048, so the 17-point system font has ascender 16.19, descender 4.10 and
/// line height 20.29, which UILabel rounds up to 20.5 on a 2x screen.
enum FontMetrics {
    struct Metrics: Hashable {
        var ascender: Double
        var descender: Double
        var lineHeight: Double { ascender + descender }
    }

    /// Ascender and descender per point, by family.
    static func ratios(family: String) -> (ascender: Double, descender: Double) {
        switch family {
        case "Helvetica Neue", "HelveticaNeue": return (0.952, 0.213)
        case "Helvetica": return (0.77, 0.23)
        case "Avenir", "Avenir Next": return (1.0, 0.366)
        case "Menlo": return (0.928, 0.236)
        case "Lucida Grande": return (0.967, 0.211)
        default: return (1950.0 / 2048.0, 494.0 / 2048.0)
        }
    }

    static func metrics(of font: IBFont) -> Metrics {
        let r = ratios(family: font.family)
        return Metrics(ascender: r.ascender * font.pointSize, descender: r.descender * font.pointSize)
    }

    /// Point sizes of UIKit's text styles at the default content size category.
    static let iOSTextStyles: [String: Double] = [
        "UICTFontTextStyleLargeTitle": 34, "UICTFontTextStyleTitle0": 34, "UICTFontTextStyleTitle1": 28,
        "UICTFontTextStyleTitle2": 22, "UICTFontTextStyleTitle3": 20, "UICTFontTextStyleHeadline": 17,
        "UICTFontTextStyleBody": 17, "UICTFontTextStyleCallout": 16, "UICTFontTextStyleSubhead": 15,
        "UICTFontTextStyleFootnote": 13, "UICTFontTextStyleCaption1": 12, "UICTFontTextStyleCaption2": 11,
    ]

    /// Point sizes of AppKit's text styles and meta fonts.
    static let macTextStyles: [String: Double] = [
        "largeTitle": 26, "title1": 22, "title2": 17, "title3": 15, "headline": 13, "subheadline": 11,
        "body": 13, "callout": 12, "footnote": 10, "caption1": 10, "caption2": 10,
    ]
    static let macMetaFonts: [String: Double] = [
        "system": 13, "systemBold": 13, "message": 13, "controlContent": 13, "menu": 13, "menuBar": 13,
        "smallSystem": 11, "smallSystemBold": 11, "miniSystem": 9, "miniSystemBold": 9,
        "label": 10, "cellTitle": 12, "toolTip": 11, "titleBar": 13, "palette": 11, "user": 12, "fixedUser": 11,
    ]

    /// The font a `<fontDescription>` (iOS) or `<font>` (macOS) element describes; nil when
    /// it names no size the importer can tell.
    static func font(described node: XMLElementNode) -> IBFont? {
        if node.name == "fontDescription" {
            if let style = node["style"] {
                guard let size = iOSTextStyles[style] else { return nil }
                return IBFont(pointSize: size, family: "system")
            }
            guard let size = node.number("pointSize"), size > 0, size <= 10_000 else { return nil }
            return IBFont(pointSize: size, family: node["family"] ?? node["type"] ?? "system")
        }
        if let meta = node["metaFont"], let size = macMetaFonts[meta] {
            return IBFont(pointSize: size, family: "system")
        }
        if let style = node["textStyle"], let size = macTextStyles[style] {
            return IBFont(pointSize: size, family: "system")
        }
        if let size = node.number("size"), size > 0, size <= 10_000 {
            return IBFont(pointSize: size, family: node["name"].map(familyName) ?? "system")
        }
        if node.flag("usesAppearanceFont") == true { return IBFont(pointSize: 13, family: "system") }
        return nil
    }

    /// `HelveticaNeue-Bold` → `HelveticaNeue`; `.SFNS-Regular` → `system`.
    static func familyName(_ postScriptName: String) -> String {
        if postScriptName.hasPrefix(".") { return "system" }
        return String(postScriptName.prefix { $0 != "-" })
    }
}
