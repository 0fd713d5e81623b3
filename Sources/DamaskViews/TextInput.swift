/// A responder that holds text the user edits (a text field).
///
/// What the window's first responder shows to code that is not its owner: input scripts'
/// `expect text` check reads ``text`` from the window's first responder when it adopts this
/// protocol. Main-actor, like every responder.
@MainActor public protocol TextInput: AnyObject {
    /// The text as the user sees it now (not including text whose paste is still on its way).
    var text: String { get }
}
