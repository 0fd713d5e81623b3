import DamaskTestSupport
@testable import DamaskInspect
import Testing

@Suite("Wire decoding", .timeLimit(.minutes(5)))
struct WireCodecTests {
    static let bind = WireInterface.known["wl_registry"]!.requests[0]
    static let createPool = WireInterface.known["wl_shm"]!.requests[0]
    static let setTitle = WireInterface.known["xdg_toplevel"]!.requests.first { $0.name == "set_title" }!

    @Test("The generated tables know the core and vendored interfaces with their fds")
    func tablesKnowInterfaces() throws {
        let shm = try #require(WireInterface.known["wl_shm"])
        #expect(shm.requests.first?.name == "create_pool")
        #expect(shm.requests.first?.fdCount == 1)
        #expect(WireInterface.known["wl_keyboard"]?.events.first { $0.name == "keymap" }?.fdCount == 1)
        #expect(WireInterface.known["xdg_wm_base"] != nil)
        #expect(WireInterface.known["wp_viewport"] != nil)
        #expect(WireInterface.known["zwp_linux_dmabuf_v1"] == nil)
    }

    @Test("An untyped new_id (interface, version, id) survives encode and decode")
    func untypedNewIDRoundTrips() throws {
        let values: [WireValue] = [.uint(7), .newID(12, interface: "wl_compositor", version: 5)]
        let bytes = WireCodec.encode(objectID: 2, opcode: 0, values)
        let header = try #require(WireCodec.header(in: bytes, at: 0))
        #expect(header == WireCodec.Header(objectID: 2, opcode: 0, size: bytes.count))
        var fds: ArraySlice<Int32> = []
        // try?: a decoding error is a failed expectation here, not a thrown error.
        let decoded = try? WireCodec.decode(bytes[8...], as: Self.bind, objectID: 2, interface: "wl_registry", fds: &fds)
        #expect(decoded == values)
    }

    @Test("A file descriptor argument takes the next received fd, in order")
    func fdArgumentTakesTheNextFD() throws {
        let bytes = WireCodec.encode(objectID: 4, opcode: 0, [.newID(9, interface: nil, version: 0), .fd(-1), .int(4096)])
        var fds: ArraySlice<Int32> = [41, 42]
        let decoded = try WireCodec.decode(bytes[8...], as: Self.createPool, objectID: 4, interface: "wl_shm", fds: &fds)
        #expect(decoded == [.newID(9, interface: "wl_shm_pool", version: 0), .fd(41), .int(4096)])
        #expect(fds == [42])
    }

    @Test("A missing fd, a short message, an unterminated string and leftover bytes are errors naming the argument")
    func malformedMessagesAreErrors() throws {
        var none: ArraySlice<Int32> = []
        let pool = WireCodec.encode(objectID: 4, opcode: 0, [.newID(9, interface: nil, version: 0), .int(4096)])
        #expect(throws: WireError.self) { try WireCodec.decode(pool[8...], as: Self.createPool, objectID: 4, interface: "wl_shm", fds: &none) }
        do {
            _ = try WireCodec.decode(pool[8...], as: Self.createPool, objectID: 4, interface: "wl_shm", fds: &none)
        } catch let error as WireError {
            #expect(error.message.contains("'fd'"), "\(error.message)")
            #expect(error.code == .invalidMethod)
        }
        var title = WireCodec.encode(objectID: 5, opcode: 2, [.string("abc")])
        title[8 + 4 + 3] = UInt8(ascii: "d")  // overwrite the NUL
        #expect(throws: WireError.self) { try WireCodec.decode(title[8...], as: Self.setTitle, objectID: 5, interface: "xdg_toplevel", fds: &none) }
        let short = WireCodec.encode(objectID: 5, opcode: 2, [.uint(100)])  // claims 100 bytes, has none
        #expect(throws: WireError.self) { try WireCodec.decode(short[8...], as: Self.setTitle, objectID: 5, interface: "xdg_toplevel", fds: &none) }
        let long = WireCodec.encode(objectID: 5, opcode: 2, [.string("a"), .uint(1)])
        #expect(throws: WireError.self) { try WireCodec.decode(long[8...], as: Self.setTitle, objectID: 5, interface: "xdg_toplevel", fds: &none) }
    }

    @Test("Random bytes never trap the decoder: every message decodes or throws")
    func randomBytesNeverTrap() {
        var generator = SeededRandom(seed: 19)
        var outcomes = (decoded: 0, rejected: 0)
        for interface in WireInterface.known.values {
            for message in interface.requests + interface.events {
                for _ in 0..<20 {
                    let count = Int(generator.next() % 48) * (generator.next() % 2 == 0 ? 1 : 4) / 4 * 4
                    let body = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() % 3 == 0 ? 0 : generator.next() % 24) }
                    var fds: ArraySlice<Int32> = generator.next() % 2 == 0 ? [3, 4] : []
                    if (try? WireCodec.decode(body[...], as: message, objectID: 3, interface: interface.name, fds: &fds)) != nil {
                        outcomes.decoded += 1
                    } else {
                        outcomes.rejected += 1
                    }
                }
            }
        }
        #expect(outcomes.decoded > 0 && outcomes.rejected > 0, "\(outcomes)")
    }
}

