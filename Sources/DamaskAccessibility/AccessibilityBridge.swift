import DamaskViews
import Foundation

/// Exports the application's windows and views to assistive technologies over AT-SPI2 (the
/// Linux accessibility bus), and costs nothing while none listens.
///
/// ``start()`` connects to the session bus only (when there is one) and follows
/// `org.a11y.Status`: while neither `IsEnabled` nor `ScreenReaderEnabled` is true (no
/// screen reader, no Accerciser) there is no connection to the accessibility bus, no
/// observer of the view tree and no tree, and the session-bus connection is silent. Once
/// one turns true the bridge asks `org.a11y.Bus.GetAddress`, connects, registers the
/// application with the registry (`org.a11y.atspi.Socket.Embed`) and from then on answers
/// the AT's questions by reading the live view tree as it asks, and turns the toolkit's
/// ``AccessibilityNotification``s into AT-SPI events. When both turn false again it
/// disconnects.
///
/// Environment: `DAMASK_ACCESSIBILITY=1` connects whatever the status says (as Qt's
/// `QT_LINUX_ACCESSIBILITY_ALWAYS_ON`), `=0` never; `AT_SPI_BUS_ADDRESS` names the
/// accessibility bus instead of asking for it. Main-actor isolated: every D-Bus message is
/// read, answered and sent on the main actor; the sockets are watched through the
/// ``DescriptorWatcher`` given (no thread, no polling).
@MainActor public final class AccessibilityBridge: AccessibilityObserver {
    /// The application's name, as assistive technologies list it.
    public let applicationName: String
    private let watcher: DescriptorWatcher
    private let environment: [String: String]
    /// The session-bus connection (status only); nil without a session bus.
    private var session: DBusConnection?
    /// The accessibility-bus connection; nil while no AT listens.
    var bus: DBusConnection?
    /// Paths and the nodes behind them.
    var objects = AtspiObjectTable()
    /// The id the registry gave the application (`Application.Id`).
    var applicationID: Int32 = 0
    /// The node that had focus last (for focus-lost events).
    weak var focusedObject: AnyObject?
    private var isStatusEnabled = false

    /// Whether the bridge is connected to the accessibility bus now.
    public var isConnectedToAccessibilityBus: Bool { bus?.isOpen ?? false }
    /// Whether the bridge is connected to the session bus (following `org.a11y.Status`).
    public var isFollowingStatus: Bool { session?.isOpen ?? false }
    /// Called after the bridge connected to or disconnected from the accessibility bus.
    public var onConnectionChange: (@MainActor (Bool) -> Void)?

    /// Creates a bridge for an application called `applicationName`, watching its sockets
    /// with `watcher`.
    public init(
        applicationName: String, watcher: DescriptorWatcher = .mainQueue,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.applicationName = applicationName
        self.watcher = watcher
        self.environment = environment
    }

    /// Starts following the accessibility status (see the type's comment). Without a
    /// session bus and without `DAMASK_ACCESSIBILITY=1` it does nothing.
    public func start() {
        switch environment["DAMASK_ACCESSIBILITY"] {
        case "0": return
        case "1":
            isStatusEnabled = true
            if let address = environment["AT_SPI_BUS_ADDRESS"], !address.isEmpty {
                return connect(to: address)
            }
        default: break
        }
        guard session == nil, let address = sessionBusAddress else { return }
        do {
            let session = try DBusConnection(address: address, watcher: watcher)
            self.session = session
            session.onMessage = { [weak self] message in self?.handleSessionSignal(message) ?? false }
            session.onDisconnect = { [weak self] in self?.session = nil }
            session.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.a11y.Bus'")
            session.addMatch(
                "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='/org/a11y/bus'")
            session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string("org.a11y.Bus")]) {
                [weak self] result in
                if case .success(let values) = result, values.first?.boolValue == true { self?.readStatus() }
            }
        } catch {
            report("no session bus (\(error)); accessibility stays off")
        }
    }

    /// Disconnects from both buses.
    public func stop() {
        disconnect()
        session?.close()
        session = nil
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`
    /// when that socket exists. Never libdbus's autolaunch (which could start a bus).
    private var sessionBusAddress: String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") {
            return "unix:path=" + runtime + "/bus"
        }
        return nil
    }

    // MARK: Following org.a11y.Status

    private func readStatus() {
        session?.call("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "GetAll", [.string("org.a11y.Status")]) {
            [weak self] result in
            guard let self, case .success(let values) = result, case .array(_, let entries)? = values.first else { return }
            applyStatus(entries, replacing: true)
        }
    }

    private var statusFlags: (isEnabled: Bool, screenReader: Bool) = (false, false)

    private func applyStatus(_ entries: [DBusValue], replacing: Bool) {
        if replacing { statusFlags = (false, false) }
        for case .dictEntry(let key, let value) in entries {
            switch key.stringValue {
            case "IsEnabled": statusFlags.isEnabled = value.boolValue ?? false
            case "ScreenReaderEnabled": statusFlags.screenReader = value.boolValue ?? false
            default: break
            }
        }
        setEnabled(statusFlags.isEnabled || statusFlags.screenReader)
    }

    private func handleSessionSignal(_ message: DBusIncomingMessage) -> Bool {
        guard message.type == 4 else { return false }  // DBUS_MESSAGE_TYPE_SIGNAL
        if message.member == "NameOwnerChanged", message.arguments.first?.stringValue == "org.a11y.Bus" {
            let newOwner = message.arguments.count > 2 ? message.arguments[2].stringValue ?? "" : ""
            if newOwner.isEmpty { setEnabled(false) } else { readStatus() }
            return true
        }
        if message.member == "PropertiesChanged", message.path == "/org/a11y/bus",
            message.arguments.first?.stringValue == "org.a11y.Status", message.arguments.count > 1,
            case .array(_, let entries) = message.arguments[1]
        {
            applyStatus(entries, replacing: false)
            return true
        }
        return false
    }

    private func setEnabled(_ enabled: Bool) {
        let forced = environment["DAMASK_ACCESSIBILITY"] == "1"
        isStatusEnabled = enabled || forced
        if isStatusEnabled, bus == nil {
            if let address = environment["AT_SPI_BUS_ADDRESS"], !address.isEmpty { return connect(to: address) }
            session?.call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress") { [weak self] result in
                guard let self, self.isStatusEnabled, self.bus == nil else { return }
                switch result {
                case .success(let values):
                    if let address = values.first?.stringValue { connect(to: address) }
                case .failure(let error):
                    report("org.a11y.Bus.GetAddress failed: \(error)")
                }
            }
        } else if !isStatusEnabled, bus != nil {
            disconnect()
        }
    }

    // MARK: The accessibility bus

    private func connect(to address: String) {
        guard bus == nil else { return }
        do {
            let bus = try DBusConnection(address: address, watcher: watcher)
            self.bus = bus
            objects = AtspiObjectTable()
            bus.onMessage = { [weak self] message in self?.handle(message) ?? false }
            bus.onDisconnect = { [weak self] in self?.disconnect() }
            AccessibilityCenter.addObserver(self)
            bus.call(
                "org.a11y.atspi.Registry", AtspiObjectTable.rootPath, "org.a11y.atspi.Socket", "Embed",
                [.reference(bus.uniqueName, AtspiObjectTable.rootPath)]
            ) { [weak self] result in
                if case .failure(let error) = result { self?.report("registering with the AT-SPI registry failed: \(error)") }
            }
            onConnectionChange?(true)
        } catch {
            report("cannot connect to the accessibility bus at \(address): \(error)")
        }
    }

    private func disconnect() {
        guard let bus else { return }
        AccessibilityCenter.removeObserver(self)
        self.bus = nil
        objects = AtspiObjectTable()
        bus.close()
        onConnectionChange?(false)
    }

    func report(_ message: String) {
        FileHandle.standardError.write(Data("damask accessibility: \(message)\n".utf8))
    }
}
