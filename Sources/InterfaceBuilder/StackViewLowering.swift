import LayoutModel

/// The constraints UIStackView (and, approximately, NSStackView) makes for its arranged
/// subviews, written for a horizontal stack (a vertical one swaps the axes):
///
/// - canvas: the first arranged view's leading edge on the stack's leading edge, the last
///   one's trailing edge on its trailing edge (margins with `layoutMarginsRelativeArrangement`);
/// - spacing: `next.leading == prev.trailing + spacing` for `fill`, `fillEqually` and
///   `fillProportionally`, `>=` for `equalSpacing` and `equalCentering` (between baselines
///   for a vertical stack with `baselineRelativeArrangement`);
/// - distribution: `fillEqually` makes every width equal to the first; `fillProportionally`
///   gives each view `(its intrinsic width / the sum of them)` of the width left after the
///   spacing, at priority 999; `equalSpacing` puts a spacer between consecutive views and
///   makes all spacers equally wide; `equalCentering` does the same with spacers between
///   centres, at priority 149 (the spacing wins over equal centring when space is short);
///   `fill` adds nothing: content hugging decides who stretches;
/// - alignment: `fill` pins top and bottom; `leading`, `center`, `trailing` and the
///   baselines pin the named edge (centre, baseline of the first view), keep every view
///   inside the stack (`top >=`, `bottom <=`) and let the stack hug the tallest view
///   (`height <= 0` at priority 49, UIStackView's canvas fit; NSStackView's own hugging
///   priority on macOS);
/// - hidden arranged views leave the arrangement: their width is 0, the canvas and the
///   spacing skip them, they are aligned across the axis like the others, and along it they
///   are held at the stack's leading edge at priority 1 (where UIStackView leaves them is
///   not specified; IB stores them at either end, so that position is not compared).
struct StackViewLowering {
    let stack: Int
    let properties: IBStackProperties
    let arranged: [(item: Int, hidden: Bool)]
    let platform: IBPlatform
    var notes: [String] = []

    init(stack: Int, properties: IBStackProperties, arranged: [(item: Int, hidden: Bool)], platform: IBPlatform) {
        self.stack = stack
        self.properties = properties
        self.arranged = arranged
        self.platform = platform
    }

    /// Attributes along the stack's axis and across it.
    private var axis: (leading: Attribute, trailing: Attribute, size: Attribute, center: Attribute,
                       leadingMargin: Attribute, trailingMargin: Attribute) {
        properties.vertical
            ? (.top, .bottom, .height, .centerY, .topMargin, .bottomMargin)
            : (.leading, .trailing, .width, .centerX, .leadingMargin, .trailingMargin)
    }
    private var cross: (leading: Attribute, trailing: Attribute, size: Attribute, center: Attribute,
                        leadingMargin: Attribute, trailingMargin: Attribute) {
        properties.vertical
            ? (.leading, .trailing, .width, .centerX, .leadingMargin, .trailingMargin)
            : (.top, .bottom, .height, .centerY, .topMargin, .bottomMargin)
    }

    mutating func lower(into assembly: inout LayoutAssembly) {
        let name = assembly.items[stack].name
        let p = properties
        let axis = self.axis
        let cross = self.cross
        let canvasLeading = p.marginsRelative ? axis.leadingMargin : axis.leading
        let canvasTrailing = p.marginsRelative ? axis.trailingMargin : axis.trailing
        let fitPriority: (axis: Priority, cross: Priority) = {
            if let hugging = p.stackHugging {
                return p.vertical ? (hugging.vertical, hugging.horizontal) : (hugging.horizontal, hugging.vertical)
            }
            return (Priority(49), Priority(49))
        }()

        guard !arranged.isEmpty else {
            // An empty stack hugs to nothing.
            assembly.add(id: "\(name)_empty_\(axis.size.rawValue)", (stack, axis.size), .lessThanOrEqual, nil, priority: fitPriority.axis)
            assembly.add(id: "\(name)_empty_\(cross.size.rawValue)", (stack, cross.size), .lessThanOrEqual, nil, priority: fitPriority.cross)
            notes.append("empty stack view: hugs to zero size at priorities \(fitPriority.axis) and \(fitPriority.cross)")
            return
        }
        var distribution = p.distribution
        if distribution == .gravityAreas {
            notes.append("NSStackView gravity areas laid out as distribution fill")
            distribution = .fill
        }
        if platform == .macOS {
            notes.append("NSStackView lowered like UIStackView, with its hugging priorities for the fit")
        }

        // Hidden views leave the arrangement: no width, no spacing. Their place along the axis
        // is not UIStackView's concern; they are held at the start at the lowest priority
        // (another constraint may place them), and their stored position there is not compared.
        let views = arranged.map(\.item)
        for (i, a) in arranged.enumerated() where a.hidden {
            assembly.add(id: "\(name)_hiding\(i + 1)", (a.item, axis.size), .equal, nil)
            assembly.add(id: "\(name)_hidden_place\(i + 1)", (a.item, axis.leading), .equal, (stack, canvasLeading), priority: Priority(1))
        }
        let visible = arranged.filter { !$0.hidden }.map(\.item)
        guard let firstVisible = visible.first, let lastVisible = visible.last else {
            assembly.add(id: "\(name)_empty_\(axis.size.rawValue)", (stack, axis.size), .lessThanOrEqual, nil, priority: fitPriority.axis)
            notes.append("every arranged view is hidden: the stack hugs to zero length")
            alignCrossAxis(views, into: &assembly)
            return
        }

        // Canvas connections along the axis, and spacing between consecutive visible views.
        assembly.add(id: "\(name)_canvas_start", (firstVisible, axis.leading), .equal, (stack, canvasLeading))
        assembly.add(id: "\(name)_canvas_end", (stack, canvasTrailing), .equal, (lastVisible, axis.trailing))
        let spacingRelation: Relation = (distribution == .equalSpacing || distribution == .equalCentering) ? .greaterThanOrEqual : .equal
        for i in 0..<(visible.count - 1) {
            let (before, after): (Attribute, Attribute) = p.vertical && p.baselineRelative
                ? (.lastBaseline, .firstBaseline) : (axis.trailing, axis.leading)
            assembly.add(id: "\(name)_spacing\(i + 1)", (visible[i + 1], after), spacingRelation, (visible[i], before),
                         constant: NumericLiteral(RootImporter.rounded(p.spacing)))
        }

        // Distribution.
        switch distribution {
        case .fill, .gravityAreas:
            break
        case .fillEqually:
            for v in visible.dropFirst() {
                assembly.add(id: "\(name)_fill_equally", (v, axis.size), .equal, (visible[0], axis.size))
            }
        case .fillProportionally:
            let sizes = visible.map { assembly.items[$0].intrinsic[properties.vertical ? .vertical : .horizontal]?.doubleValue ?? 0 }
            let total = sizes.reduce(0, +)
            if total > 0 {
                let spacingTotal = p.spacing * Double(max(visible.count - 1, 0))
                for (v, size) in zip(visible, sizes) where size > 0 {
                    let share = size / total
                    assembly.add(id: "\(name)_fill_proportionally", (v, axis.size), .equal, multiplier: NumericLiteral(share),
                                 (stack, axis.size), constant: NumericLiteral(RootImporter.rounded(-share * spacingTotal)),
                                 priority: Priority(999))
                }
            } else {
                notes.append("fillProportionally without intrinsic sizes: laid out as fill")
            }
        case .equalSpacing, .equalCentering:
            let centring = distribution == .equalCentering
            var spacers: [Int] = []
            for i in 0..<max(visible.count - 1, 0) {
                let spacer = assembly.add(AssemblyItem(
                    name: assembly.uniqueName("\(name)_\(centring ? "centering" : "spacing")_guide\(i + 1)"), parent: stack,
                    source: "UIStackView \(centring ? "centring" : "spacing") guide of \(name)", view: nil,
                    storedLocal: nil, storedGlobal: nil, hasExpectedFrame: false))
                let s = assembly.items[spacer].name
                let (from, to): (Attribute, Attribute) = centring ? (axis.center, axis.center) : (axis.trailing, axis.leading)
                assembly.add(id: "\(s)_start", (spacer, axis.leading), .equal, (visible[i], from))
                assembly.add(id: "\(s)_end", (spacer, axis.trailing), .equal, (visible[i + 1], to))
                // Across the axis the guide spans the stack, so it is never ambiguous there.
                assembly.add(id: "\(s)_cross_start", (spacer, cross.leading), .equal, (stack, cross.leading))
                assembly.add(id: "\(s)_cross_end", (spacer, cross.trailing), .equal, (stack, cross.trailing))
                spacers.append(spacer)
            }
            for s in spacers.dropFirst() {
                assembly.add(id: "\(name)_equal_\(centring ? "centering" : "spacing")", (s, axis.size), .equal, (spacers[0], axis.size),
                             priority: centring ? Priority(149) : .required)
            }
        }

        alignCrossAxis(views, into: &assembly)
    }

    /// Alignment across the axis, for every arranged view (hidden ones too).
    private mutating func alignCrossAxis(_ views: [Int], into assembly: inout LayoutAssembly) {
        let name = assembly.items[stack].name
        let p = properties
        let cross = self.cross
        let crossLeading = p.marginsRelative ? cross.leadingMargin : cross.leading
        let crossTrailing = p.marginsRelative ? cross.trailingMargin : cross.trailing
        let crossCenter: Attribute = p.marginsRelative ? (p.vertical ? .centerXWithinMargins : .centerYWithinMargins) : cross.center
        let fitPriority = p.stackHugging.map { p.vertical ? $0.horizontal : $0.vertical } ?? Priority(49)
        switch p.alignment {
        case .fill:
            for v in views {
                assembly.add(id: "\(name)_align_start", (v, cross.leading), .equal, (stack, crossLeading))
                assembly.add(id: "\(name)_align_end", (stack, crossTrailing), .equal, (v, cross.trailing))
            }
        case .leading, .center, .trailing, .firstBaseline, .lastBaseline:
            for v in views {
                switch p.alignment {
                case .leading:
                    assembly.add(id: "\(name)_align_start", (v, cross.leading), .equal, (stack, crossLeading))
                case .trailing:
                    assembly.add(id: "\(name)_align_end", (stack, crossTrailing), .equal, (v, cross.trailing))
                case .center:
                    assembly.add(id: "\(name)_align_center", (v, cross.center), .equal, (stack, crossCenter))
                case .firstBaseline, .lastBaseline:
                    if p.vertical {
                        notes.append("baseline alignment on a vertical stack means leading alignment")
                        assembly.add(id: "\(name)_align_start", (v, cross.leading), .equal, (stack, crossLeading))
                    } else if v != views[0] {
                        let b: Attribute = p.alignment == .firstBaseline ? .firstBaseline : .lastBaseline
                        assembly.add(id: "\(name)_align_baseline", (v, b), .equal, (views[0], b))
                    }
                case .fill:
                    break
                }
                // Hidden views are aligned but not kept inside: UIStackView no longer arranges them.
                let hidden = arranged.contains { $0.item == v && $0.hidden }
                if p.alignment != .leading && !hidden {
                    assembly.add(id: "\(name)_inside_start", (v, cross.leading), .greaterThanOrEqual, (stack, crossLeading))
                }
                if p.alignment != .trailing && !hidden {
                    assembly.add(id: "\(name)_inside_end", (stack, crossTrailing), .greaterThanOrEqual, (v, cross.trailing))
                }
            }
            assembly.add(id: "\(name)_canvas_fit", (stack, cross.size), .lessThanOrEqual, nil, priority: fitPriority)
        }
    }
}
