import Glibc

/// One non-blocking Unix socket of the proxy with its input and output queues: bytes and the
/// file descriptors that arrived (or must leave) with them as SCM_RIGHTS.
///
/// Ownership: the connection owns its socket, every fd in `incomingFDs` (received, not yet
/// taken) and every fd in the outgoing queue (closed once sent); `close()` closes them all.
/// Not thread-safe: used from the proxy's one poll loop.
final class WireConnection {
    /// The socket; -1 once closed.
    private(set) var socket: Int32
    /// Received bytes not yet consumed (`consumed` of them are).
    private(set) var incoming: [UInt8] = []
    private(set) var consumed = 0
    /// Received file descriptors not yet taken by a decoded message, in arrival order.
    var incomingFDs: [Int32] = []
    private var outgoing: [UInt8] = []
    private var receiveBuffer = [UInt8](repeating: 0, count: 65_536)
    /// Room for CMSG_SPACE(28 * 4) on LP64 (16-byte header + 112 bytes) and more.
    private var receiveControl = [UInt8](repeating: 0, count: 256)
    private var outgoingFDs: [Int32] = []
    /// Bytes queued and bytes sent since the connection opened: a message queued when
    /// `bytesQueued` reached N has left once `bytesSent` ≥ N.
    private(set) var bytesQueued = 0
    private(set) var bytesSent = 0
    /// Whether the peer closed its end (or the socket failed).
    private(set) var isAtEndOfStream = false

    /// The most fds libwayland accepts in one message batch.
    static let maximumFDsPerSend = 28

    init(socket: Int32) {
        self.socket = socket
        let flags = fcntl(socket, F_GETFL)
        _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
    }

    deinit { close() }

    /// Bytes waiting to be sent.
    var pendingOutput: Int { outgoing.count }

    /// The unconsumed received bytes start at this index of `incoming`.
    var unconsumedRange: Range<Int> { consumed..<incoming.count }

    /// Marks `count` received bytes as consumed.
    func consume(_ count: Int) {
        consumed += count
        if consumed == incoming.count {
            incoming.removeAll(keepingCapacity: true)
            consumed = 0
        } else if consumed > 65_536 {
            incoming.removeFirst(consumed)
            consumed = 0
        }
    }

    /// Reads what is available without blocking. Returns false at end of stream or error.
    @discardableResult
    func receive() -> Bool {
        guard socket >= 0, !isAtEndOfStream else { return false }
        while true {
            let received: Int = receiveBuffer.withUnsafeMutableBytes { data in
                receiveControl.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = controlBytes.baseAddress
                        header.msg_controllen = controlBytes.count
                        let n = recvmsg(socket, &header, Int32(MSG_DONTWAIT) | Int32(MSG_CMSG_CLOEXEC))
                        if n >= 0 { Self.collectFDs(controlBytes, length: Int(header.msg_controllen), into: &incomingFDs) }
                        return n
                    }
                }
            }
            if received > 0 {
                incoming.append(contentsOf: receiveBuffer[0..<received])
                if received < receiveBuffer.count { return true }
                continue
            }
            if received == 0 {
                isAtEndOfStream = true
                return false
            }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return true }
            isAtEndOfStream = true
            return false
        }
    }

    /// Queues a message and the fds that travel with it; the connection now owns `fds`.
    func enqueue(_ bytes: ArraySlice<UInt8>, fds: [Int32]) {
        outgoing.append(contentsOf: bytes)
        outgoingFDs.append(contentsOf: fds)
        bytesQueued += bytes.count
    }

    /// Sends as much as the socket takes without blocking; fds go with the first bytes sent
    /// after them. Returns false when the socket failed.
    @discardableResult
    func flush() -> Bool {
        guard socket >= 0 else { return false }
        while !outgoing.isEmpty {
            let fdCount = min(outgoingFDs.count, Self.maximumFDsPerSend)
            let sent: Int = outgoing.withUnsafeMutableBytes { data in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                var control = [UInt8](repeating: 0, count: fdCount == 0 ? 0 : 16 + ((fdCount * 4 + 7) & ~7))
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    control.withUnsafeMutableBytes { controlBytes in
                        var header = msghdr()
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        if fdCount > 0 {
                            let length = 16 + fdCount * 4
                            controlBytes.storeBytes(of: length, toByteOffset: 0, as: Int.self)
                            controlBytes.storeBytes(of: SOL_SOCKET, toByteOffset: 8, as: Int32.self)
                            controlBytes.storeBytes(of: 1 /* SCM_RIGHTS */, toByteOffset: 12, as: Int32.self)
                            for i in 0..<fdCount {
                                controlBytes.storeBytes(of: outgoingFDs[i], toByteOffset: 16 + 4 * i, as: Int32.self)
                            }
                            header.msg_control = controlBytes.baseAddress
                            header.msg_controllen = controlBytes.count
                        }
                        return sendmsg(socket, &header, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
                    }
                }
            }
            if sent >= 0 {
                for fd in outgoingFDs.prefix(fdCount) { Glibc.close(fd) }
                outgoingFDs.removeFirst(fdCount)
                outgoing.removeFirst(sent)
                bytesSent += sent
                continue
            }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return true }
            return false
        }
        return true
    }

    /// Closes the socket and every fd the connection still owns. Idempotent.
    /// Sends what is queued, closes the write side, and closes the socket once the peer has
    /// closed its side too or `milliseconds` have passed.
    ///
    /// A compositor built on libwayland-server destroys a client as soon as it sees the
    /// socket hang up, even with requests still unread: a plain `close()` right after the
    /// client's last commit could lose that commit. Half-closing lets the compositor read
    /// everything first, then see the end of the stream. What the peer still sends meanwhile
    /// is discarded (fds that come with it are closed by the kernel). Blocks the proxy's
    /// loop for at most `milliseconds`; compositors close within a turn of their own loop.
    func closeGracefully(milliseconds: Int32) {
        guard socket >= 0 else { return }
        var remaining = milliseconds
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        while remaining > 0, flush(), pendingOutput > 0 {
            _ = poll(&descriptor, 1, 10)
            remaining -= 10
        }
        if Glibc.shutdown(socket, Int32(SHUT_WR)) == 0 {
            descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            var scratch = [UInt8](repeating: 0, count: 4096)
            while remaining > 0 {
                remaining -= 10
                guard poll(&descriptor, 1, 10) > 0 else { continue }
                let count = recv(socket, &scratch, scratch.count, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { break }
            }
        }
        close()
    }

    func close() {
        for fd in incomingFDs + outgoingFDs { Glibc.close(fd) }
        incomingFDs.removeAll()
        outgoingFDs.removeAll()
        if socket >= 0 { Glibc.close(socket) }
        socket = -1
        isAtEndOfStream = true
    }

    /// Appends the SCM_RIGHTS fds of a received control buffer (cmsghdr layout on LP64 Linux:
    /// size_t length, int level, int type, data aligned to 8).
    private static func collectFDs(_ control: UnsafeMutableRawBufferPointer, length: Int, into fds: inout [Int32]) {
        var offset = 0
        let end = min(length, control.count)
        while end - offset >= 16 {
            let cmsgLength = control.load(fromByteOffset: offset, as: Int.self)
            let level = control.load(fromByteOffset: offset + 8, as: Int32.self)
            let type = control.load(fromByteOffset: offset + 12, as: Int32.self)
            guard cmsgLength >= 16, offset + cmsgLength <= end else { break }
            if level == SOL_SOCKET && type == 1 {
                let count = (cmsgLength - 16) / 4
                for i in 0..<count {
                    fds.append(control.load(fromByteOffset: offset + 16 + 4 * i, as: Int32.self))
                }
            }
            offset += (cmsgLength + 7) & ~7
        }
    }
}
