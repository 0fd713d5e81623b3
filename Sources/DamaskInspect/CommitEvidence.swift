/// The pixels behind an offending record, for an evidence image: the content before and at
/// the commit, and the declared damage.
public struct CommitEvidence: Sendable {
    public let previous: ContentSnapshot
    public let current: ContentSnapshot
    public let damage: DamageRegion
}
