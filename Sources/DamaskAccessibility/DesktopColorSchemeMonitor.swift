import DamaskProcess
import Foundation

/// Follows the desktop's light or dark preference over D-Bus, live.
///
/// It asks the XDG desktop portal's Settings interface (`org.freedesktop.portal.Desktop`,
/// `/org/freedesktop/portal/desktop`, `org.freedesktop.portal.Settings`) for
/// `org.freedesktop.appearance` `color-scheme` (`ReadOne`, or `Read` on portals older than
/// version 2), and listens for its `SettingChanged` signal. When the portal does not know
/// that key, it asks the portal for GNOME's `org.gnome.desktop.interface` `color-scheme`
/// instead (the GTK and GNOME portal backends expose GSettings there) and follows that
/// key's changes. When the portal has neither key (or there is no portal), it reads GNOME's
/// key with `gsettings get` and reads it again whenever dconf's writer announces a change
/// under it on the session bus. When none of these answer, ``onChange`` is never called:
/// the application keeps its own choice.
///
/// It lives here, not in DamaskControls, because this module owns the libdbus connection
/// (`CDBus`); the controls stay free of D-Bus. An application maps the preference to
/// `Appearance.current` (`monitor.onChange = { Appearance.current = $0.isDark ? .dark : .light }`).
///
/// Ownership: the monitor owns its private session-bus connection and its short-lived
/// `gsettings get` children; ``stop()`` (or its going away) closes the one and kills the
/// others still running.
/// Main-actor; the connection is read from the main queue, the children's output is read
/// by ``ChildProcess``'s reader thread and handed to the main queue once the child ended.
@MainActor public final class DesktopColorSchemeMonitor {
    /// Where the preference was read.
    public enum Source: Sendable, Equatable {
        /// Nowhere yet (or no portal answered).
        case none
        /// The portal's `org.freedesktop.appearance` namespace.
        case freedesktopAppearance
        /// GNOME's `org.gnome.desktop.interface` through the portal.
        case gnomeInterface
        /// GNOME's `org.gnome.desktop.interface` read with `gsettings` (no portal knew it),
        /// followed by dconf's change signal.
        case gsettings
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

    /// The `gsettings` program for the last fallback (nil: none).
    private let gsettingsPath: String?
    /// The environment of the `gsettings` children (nil: this process's).
    private let gsettingsEnvironment: [String: String]?

    /// Connects to the session bus, or to `address` (a private bus, for tests); the
    /// `gsettings` fallback runs `gsettingsPath` with `gsettingsEnvironment`.
    public init(
        address: String? = nil, watcher: DescriptorWatcher = .mainQueue,
        gsettingsPath: String? = "/usr/bin/gsettings", gsettingsEnvironment: [String: String]? = nil
    ) throws {
        self.gsettingsPath = gsettingsPath
        self.gsettingsEnvironment = gsettingsEnvironment
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
                guard let self else { return }
                guard let scheme = value?.stringValue.flatMap(DesktopColorScheme.init(gnomeValue:)) else {
                    return startGSettings()
                }
                source = .gnomeInterface
                update(scheme)
            }
        }
    }

    /// Stops following: closes the connection and ends the `gsettings` child.
    public func stop() {
        connection.close()
        for child in gsettingsChildren where child.isRunning { child.signalGroup(SIGKILL) }
        gsettingsChildren.removeAll()
    }

    isolated deinit {
        stop()
    }

    // MARK: The gsettings fallback

    /// The dconf path of GNOME's key, and the signal dconf's writer sends on a change.
    static let dconfKey = "/org/gnome/desktop/interface/color-scheme"
    static let dconfWriterInterface = "ca.desrt.dconf.Writer"

    /// Reads `org.gnome.desktop.interface color-scheme` with `gsettings get` (a short-lived
    /// child), and again whenever dconf's writer announces a change under it on the session
    /// bus (`ca.desrt.dconf.Writer.Notify`): no long-lived child, no polling.
    private func startGSettings() {
        guard let path = gsettingsPath, FileManager.default.isExecutableFile(atPath: path), !followsDconf else { return }
        followsDconf = true
        connection.addMatch("type='signal',interface='\(Self.dconfWriterInterface)',member='Notify'")
        readGSettings()
    }

    /// Whether the dconf signal is followed (the fallback started).
    private var followsDconf = false

    /// Runs `gsettings get` (a ``ChildProcess``: its own process group, stdout read by the
    /// child's reader thread); a thread of its own waits for the child to end (at most
    /// ``gsettingsTimeout`` seconds, then it is killed) and hands the lines it printed to the
    /// main queue, where they are parsed. ``stop()`` kills the child if it is still running
    /// (SIGKILL: a test runner may block SIGTERM in children). Its stderr is collected and
    /// dropped.
    private func readGSettings() {
        guard let path = gsettingsPath,
            let child = try? ChildProcess(path, ["get", Self.gnomeNamespace, Self.key], environment: gsettingsEnvironment)
        else { return }
        child.closeInput()
        gsettingsChildren.removeAll { !$0.isRunning }
        gsettingsChildren.append(child)
        let timeout = Self.gsettingsTimeout
        Thread.detachNewThread { [weak self] in
            if child.waitForExit(timeout: timeout) == nil, child.isRunning { child.kill(grace: 0) }
            child.waitForEndOfOutput(timeout: 1)
            let lines = child.lines
            guard !lines.isEmpty else { return }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    for line in lines { self?.handleGSettingsLine(line) }
                }
            }
        }
    }

    /// How long a `gsettings get` may run before it is killed, in seconds.
    static let gsettingsTimeout: TimeInterval = 10

    /// The `gsettings get` children that may still run (owned here; each also held by the
    /// thread waiting for it until it ends).
    private var gsettingsChildren: [ChildProcess] = []

    /// `'prefer-dark'`: the value between the quotes.
    private func handleGSettingsLine(_ line: String) {
        guard source == .none || source == .gsettings, let open = line.firstIndex(of: "'"),
            let close = line.lastIndex(of: "'"), open < close,
            let scheme = DesktopColorScheme(gnomeValue: String(line[line.index(after: open)..<close]))
        else { return }
        source = .gsettings
        update(scheme)
    }

    /// dconf's `Notify(prefix, changes, tag)`: a change under GNOME's key reads it again.
    private func handleDconfNotify(_ message: DBusIncomingMessage) -> Bool {
        guard followsDconf, message.type == 4, message.interface == Self.dconfWriterInterface, message.member == "Notify",
            let prefix = message.arguments.first?.stringValue
        else { return false }
        var paths = [prefix]
        if message.arguments.count > 1, case .array(_, let changes) = message.arguments[1] {
            paths = changes.isEmpty ? [prefix] : changes.compactMap { $0.stringValue.map { prefix + $0 } }
        }
        if paths.contains(where: { Self.dconfKey.hasPrefix($0) }) { readGSettings() }
        return true
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
        if message.interface == Self.dconfWriterInterface { return handleDconfNotify(message) }
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
