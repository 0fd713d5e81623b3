import Foundation

/// Follows the desktop's light or dark preference over D-Bus, live.
///
/// It asks the XDG desktop portal's Settings interface (`org.freedesktop.portal.Desktop`,
/// `/org/freedesktop/portal/desktop`, `org.freedesktop.portal.Settings`) for
/// `org.freedesktop.appearance` `color-scheme` (`ReadOne`, or `Read` on portals older than
/// version 2), and listens for its `SettingChanged` signal. When the portal does not know
/// that key, it asks the portal for GNOME's `org.gnome.desktop.interface` `color-scheme`
/// instead (the GTK and GNOME portal backends expose GSettings there) and follows that
/// key's changes. With no portal on the bus it reports nothing and ``onChange`` is never
/// called: the application keeps its own choice.
///
/// It lives here, not in DamaskControls, because this module owns the libdbus connection
/// (`CDBus`); the controls stay free of D-Bus. An application maps the preference to
/// `Appearance.current` (`monitor.onChange = { Appearance.current = $0.isDark ? .dark : .light }`).
///
/// Ownership: the monitor owns its private session-bus connection and closes it in
/// ``stop()`` or when it goes away. Main-actor; the connection is read from the main queue.
@MainActor public final class DesktopColorSchemeMonitor {
    /// Where the preference was read.
    public enum Source: Sendable, Equatable {
        /// Nowhere yet (or no portal answered).
        case none
        /// The portal's `org.freedesktop.appearance` namespace.
        case freedesktopAppearance
        /// GNOME's `org.gnome.desktop.interface` through the portal.
        case gnomeInterface
    }

    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let settingsInterface = "org.freedesktop.portal.Settings"
    static let appearanceNamespace = "org.freedesktop.appearance"
    static let gnomeNamespace = "org.gnome.desktop.interface"
    static let key = "color-scheme"

    private let connection: DBusConnection
    /// The preference last read or signalled; nil until the first answer.
    public private(set) var colorScheme: DesktopColorScheme?
    /// Which namespace is followed.
    public private(set) var source = Source.none
    /// Called with each new preference (the first answer included).
    public var onChange: (@MainActor (DesktopColorScheme) -> Void)?

    /// Connects to the session bus, or to `address` (a private bus, for tests).
    public init(address: String? = nil, watcher: DescriptorWatcher = .mainQueue) throws {
        connection = try DBusConnection(address: address, watcher: watcher)
        connection.onMessage = { [weak self] message in self?.handle(message) ?? false }
    }

    /// Starts: subscribes to the portal's signal and reads the current preference (the
    /// answer arrives on the main queue, then ``onChange`` runs).
    public func start() {
        connection.addMatch(
            "type='signal',interface='\(Self.settingsInterface)',member='SettingChanged',path='\(Self.portalPath)'")
        read(Self.appearanceNamespace) { [weak self] value in
            guard let self else { return }
            if let value, let scheme = value.uint32Value.flatMap(DesktopColorScheme.init(portalValue:)) {
                source = .freedesktopAppearance
                update(scheme)
                return
            }
            read(Self.gnomeNamespace) { [weak self] value in
                guard let self, let scheme = value?.stringValue.flatMap(DesktopColorScheme.init(gnomeValue:)) else { return }
                source = .gnomeInterface
                update(scheme)
            }
        }
    }

    /// Stops following: closes the connection.
    public func stop() {
        connection.close()
    }

    /// Reads `color-scheme` in `namespace`: `ReadOne`, else the older `Read` (whose answer
    /// is wrapped in one more variant); nil when the portal is missing or has no such key.
    private func read(_ namespace: String, _ completion: @escaping @MainActor (DBusValue?) -> Void) {
        connection.call(
            Self.portalName, Self.portalPath, Self.settingsInterface, "ReadOne", [.string(namespace), .string(Self.key)]
        ) { [weak self] result in
            switch result {
            case .success(let values):
                completion(values.first.map(Self.unwrap))
            case .failure(let error) where error.name == "org.freedesktop.DBus.Error.UnknownMethod":
                self?.connection.call(
                    Self.portalName, Self.portalPath, Self.settingsInterface, "Read", [.string(namespace), .string(Self.key)]
                ) { result in
                    completion((try? result.get())?.first.map(Self.unwrap))
                }
            case .failure:
                completion(nil)
            }
        }
    }

    /// The value inside any number of variants.
    private static func unwrap(_ value: DBusValue) -> DBusValue {
        if case .variant(let inner) = value { return unwrap(inner) }
        return value
    }

    private func handle(_ message: DBusIncomingMessage) -> Bool {
        guard message.type == 4,  // DBUS_MESSAGE_TYPE_SIGNAL
            message.interface == Self.settingsInterface, message.member == "SettingChanged",
            message.arguments.count == 3, message.arguments[1].stringValue == Self.key
        else { return false }
        let namespace = message.arguments[0].stringValue
        let value = Self.unwrap(message.arguments[2])
        switch namespace {
        case Self.appearanceNamespace:
            guard let scheme = value.uint32Value.flatMap(DesktopColorScheme.init(portalValue:)) else { return true }
            source = .freedesktopAppearance
            update(scheme)
        case Self.gnomeNamespace where source != .freedesktopAppearance:
            guard let scheme = value.stringValue.flatMap(DesktopColorScheme.init(gnomeValue:)) else { return true }
            source = .gnomeInterface
            update(scheme)
        default:
            break
        }
        return true
    }

    private func update(_ scheme: DesktopColorScheme) {
        guard scheme != colorScheme else { return }
        colorScheme = scheme
        onChange?(scheme)
    }
}
