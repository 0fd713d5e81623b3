/// A published performance target and whether this run met it.
struct Target: Codable, Sendable {
    /// What the target says, e.g. `64x64 change at 3840x2160 ≤ 1% of a full repaint`.
    var statement: String
    /// The measured value, in the target's terms.
    var measured: Double
    /// The limit (inclusive).
    var limit: Double
    /// The unit both are in.
    var unit: String
    /// Whether `measured ≤ limit`.
    var holds: Bool { measured <= limit }

    private enum CodingKeys: String, CodingKey { case statement, measured, limit, unit, holds }

    /// Creates a target record.
    init(statement: String, measured: Double, limit: Double, unit: String) {
        self.statement = statement
        self.measured = measured
        self.limit = limit
        self.unit = unit
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        statement = try container.decode(String.self, forKey: .statement)
        measured = try container.decode(Double.self, forKey: .measured)
        limit = try container.decode(Double.self, forKey: .limit)
        unit = try container.decode(String.self, forKey: .unit)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statement, forKey: .statement)
        try container.encode(measured, forKey: .measured)
        try container.encode(limit, forKey: .limit)
        try container.encode(unit, forKey: .unit)
        try container.encode(holds, forKey: .holds)
    }
}
