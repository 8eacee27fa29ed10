// The number types (`NumericLiteral`, `LinearScalar`) live in the leaf module Arithmetic, which
// ExactArithmetic builds on without the format; users of the format get them with
// `import LayoutModel`, as before.
@_exported import Arithmetic
