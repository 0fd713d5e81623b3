@testable import DamaskInspect
import Testing

/// The summary's wording where a reader must not be misled: dmabuf said to be out of scope,
/// a long window title cut visibly, and the rows of surfaces whose ids were reused.
@Suite("Inspector summary text", .timeLimit(.minutes(5)))
struct InspectReportTests {
    @Test("A compositor offering dmabuf gets it listed as hidden and a line saying dmabuf is out of scope; without it no such line")
    func hiddenDmabufIsReportedOutOfScope() {
        let report = InspectReport()
        report.hide("zwp_linux_dmabuf_v1", version: 4)
        report.hide("xdg_activation_v1", version: 1)
        let summary = report.summary(cpuSeconds: 0, wallSeconds: 1)
        #expect(summary.contains("hidden globals (2): xdg_activation_v1 v1, zwp_linux_dmabuf_v1 v4"), "\(summary)")
        #expect(summary.contains("out of scope: dmabuf (zwp_linux_dmabuf_v1) was hidden"), "\(summary)")

        let without = InspectReport()
        without.hide("xdg_activation_v1", version: 1)
        #expect(!without.summary(cpuSeconds: 0, wallSeconds: 1).contains("out of scope"))
    }

    @Test("A role longer than its column is cut with an ellipsis and keeps the title's closing quote; a short one is left alone; control characters are escaped")
    func longRoleIsCutVisibly() {
        #expect(InspectReport.column(#"toplevel "GTK Widget Factory""#, width: 28) == #"toplevel "GTK Widget Facto…""#)
        #expect(InspectReport.column(#"toplevel "GTK Widget Factory""#, width: 28).count == 28)
        #expect(InspectReport.column("subsurface of @14 and more text", width: 28) == "subsurface of @14 and more …")
        #expect(InspectReport.column(#"toplevel "Damask""#, width: 28) == #"toplevel "Damask""#)
        // A title with a newline or tab would break the table's row in two.
        #expect(InspectReport.column("toplevel \"a\nb\tc\"", width: 28) == #"toplevel "a\u{a}b\u{9}c""#)
    }
    @Test("A held write found at a release after its surface was destroyed counts in that surface's row; a new surface given the same id has a row of its own")
    func heldWriteAfterDestroyBelongsToTheDestroyedSurface() {
        let report = InspectReport()
        var commit = CommitRecord(kind: .buffer, time: 1, client: 1, surface: 10, role: "toplevel", commit: 2)
        commit.buffer = 20
        report.add(commit)
        report.surfaceEnded(client: 1, surface: 10)
        var held = CommitRecord(kind: .heldWrite, time: 2, client: 1, surface: 10, role: "toplevel", commit: 2)
        held.heldWrite = true
        report.add(held)
        report.add(CommitRecord(kind: .noBuffer, time: 3, client: 1, surface: 10, role: "popup", commit: 1))
        #expect(report.surfaces.map(\.commits) == [1, 1])
        #expect(report.surfaces.map(\.heldWrites) == [1, 0])
        #expect(report.surfaces.map(\.role) == ["toplevel", "popup"])
    }
}
