import DamaskControls
import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskAccessibility

/// The desktop's colour scheme through a test portal: a second connection on a private
/// `dbus-daemon` owns `org.freedesktop.portal.Desktop` and answers the Settings interface as
/// xdg-desktop-portal does (values in a variant; `ReadOne`), and emits `SettingChanged`. The
/// monitor's preference is applied to `Appearance.current`, and a control's pixels show it.
@Suite("Desktop colour scheme from the settings portal", .serialized, .exclusive) @MainActor struct DesktopColorSchemeTests {
    /// A test portal on `bus`: answers `ReadOne` from `settings` (namespace → key → value),
    /// NotFound for anything else, and emits `SettingChanged` on ``change(_:_:_:)``.
    @MainActor final class TestPortal {
        let connection: DBusConnection
        var settings: [String: [String: DBusValue]]

        init(bus: PrivateBus, settings: [String: [String: DBusValue]]) async throws {
            connection = try DBusConnection(address: bus.address, watcher: .mainQueue)
            self.settings = settings
            connection.onMessage = { [weak self] message in
                guard let self, message.type == 1, message.interface == "org.freedesktop.portal.Settings",
                    message.member == "ReadOne", message.arguments.count == 2,
                    let namespace = message.arguments[0].stringValue, let key = message.arguments[1].stringValue
                else { return false }
                if let value = self.settings[namespace]?[key] {
                    self.connection.reply(to: message, [.variant(value)])
                } else {
                    self.connection.replyError(
                        to: message, "org.freedesktop.portal.Error.NotFound", "Requested setting not found")
                }
                return true
            }
            let owned: Result<[DBusValue], DBusCallError> = await withCheckedContinuation { continuation in
                connection.call(
                    "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                    [.string("org.freedesktop.portal.Desktop"), .uint32(4)]
                ) { continuation.resume(returning: $0) }
            }
            #expect(try owned.get() == [.uint32(1)], "the test portal owns the name")
        }

        func change(_ namespace: String, _ key: String, _ value: DBusValue) {
            settings[namespace, default: [:]][key] = value
            connection.emitSignal(
                "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings", "SettingChanged",
                [.string(namespace), .string(key), .variant(value)])
        }
    }

    /// Lets the window's pending pass run and answers its frame callbacks.
    static func present(_ surface: MemorySurface) async {
        for _ in 0..<3 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async { continuation.resume() }
            }
            if surface.hasPendingFrameRequest { surface.fireFrame() }
        }
    }

    /// The preferences a monitor reported, in order; each is applied to `Appearance.current`.
    @MainActor final class Changes {
        private(set) var received: [DesktopColorScheme] = []

        init(_ monitor: DesktopColorSchemeMonitor) {
            monitor.onChange = { [weak self] scheme in
                Appearance.current = scheme.isDark ? .dark : .light
                self?.received.append(scheme)
            }
        }

        /// The `count`th preference once it has arrived (the main queue runs meanwhile; the
        /// 20 s bound is for failures only), nil if it never did.
        func waitFor(_ count: Int) async -> DesktopColorScheme? {
            let deadline = ContinuousClock.now + .seconds(20)
            while received.count < count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return received.count >= count ? received[count - 1] : nil
        }
    }

    @Test("The portal's org.freedesktop.appearance color-scheme sets dark, and a live change to light redraws the controls in light")
    func portalSwitchesLive() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        defer { Appearance.current = .light }
        let portal = try await TestPortal(
            bus: bus, settings: ["org.freedesktop.appearance": ["color-scheme": .uint32(1)]])
        let monitor = try DesktopColorSchemeMonitor(address: bus.address)
        defer { monitor.stop() }
        let changes = Changes(monitor)

        let surface = MemorySurface(size: CGSize(width: 100, height: 20))
        let window = Window(surface: surface)
        window.flashesDamage = false
        let bar = ProgressView(frame: CGRect(x: 0, y: 0, width: 100, height: 20), progress: 0.5)
        window.contentView.addSubview(bar)
        monitor.start()
        #expect(await changes.waitFor(1) == .preferDark)
        #expect(monitor.source == .freedesktopAppearance)
        await Self.present(surface)
        func trackPixel() throws -> Color {
            try #require(surface.presentedBitmap).color(x: 75, y: 10)
        }
        let dark = try trackPixel()
        #expect(dark.isClose(to: Palette.dark.track), "\(dark)")

        portal.change("org.freedesktop.appearance", "color-scheme", .uint32(2))
        #expect(await changes.waitFor(2) == .preferLight)
        #expect(Appearance.current == .light)
        await Self.present(surface)
        let light = try trackPixel()
        #expect(light.isClose(to: Palette.light.track), "\(light)")
        #expect(bar.drawCount >= 2)
        #expect(bar.window === window)  // the window lives to here
    }

    @Test("Without org.freedesktop.appearance, GNOME's org.gnome.desktop.interface color-scheme is followed, live")
    func gnomeFallback() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        defer { Appearance.current = .light }
        let portal = try await TestPortal(
            bus: bus, settings: ["org.gnome.desktop.interface": ["color-scheme": .string("prefer-dark")]])
        let monitor = try DesktopColorSchemeMonitor(address: bus.address)
        defer { monitor.stop() }
        let changes = Changes(monitor)
        monitor.start()
        #expect(await changes.waitFor(1) == .preferDark)
        #expect(monitor.source == .gnomeInterface)
        #expect(Appearance.current == .dark)
        portal.change("org.gnome.desktop.interface", "color-scheme", .string("default"))
        #expect(await changes.waitFor(2) == .noPreference)
        #expect(Appearance.current == .light)
    }
}

extension Color {
    /// Whether the two colours' 8-bit premultiplied channels differ by at most 1 (the
    /// rounding of a colour into a pixel and back).
    func isClose(to other: Color) -> Bool {
        let a = premultipliedARGB32, b = other.premultipliedARGB32
        return stride(from: 0, to: 32, by: 8).allSatisfy { shift in
            abs(Int((a >> UInt32(shift)) & 0xff) - Int((b >> UInt32(shift)) & 0xff)) <= 1
        }
    }
}
