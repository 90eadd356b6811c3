import Foundation

/// The function symbols of a 64-bit little-endian ELF file, read from its `.symtab` (every
/// function, when the file is not stripped) or else its `.dynsym` (the exported ones), to name
/// the functions of a crash's stack at the next start without any tool. The file is mapped, not
/// copied, and a name is read only for a symbol that is asked for.
struct ELFSymbolTable: Sendable {
    struct Symbol: Sendable, Equatable {
        var name: String
        var address: UInt64
        var size: UInt64
    }

    private struct Entry: Sendable {
        var address: UInt64
        var size: UInt64
        var nameOffset: Int
    }

    private let file: Data
    /// Function symbols, sorted by address.
    private let entries: [Entry]

    /// Reads the symbols of the file at `path`; `nil` when it is not a readable 64-bit ELF file.
    init?(path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        self.init(data: data)
    }

    init?(data: Data) {
        guard let entries = data.withUnsafeBytes({ Self.functions(in: $0) }) else { return nil }
        self.file = data
        self.entries = entries.sorted { $0.address < $1.address }
    }

    /// The function holding `address` (a virtual address of the file) and the offset into it;
    /// a function of unknown size holds the addresses up to the next one.
    func symbol(containing address: UInt64) -> (symbol: Symbol, offset: UInt64)? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        // Among the few symbols at or below `address` (aliases share one), the nearest that spans it.
        for index in stride(from: low - 1, through: max(0, low - 8), by: -1) {
            let entry = entries[index]
            if entry.size == 0 || address - entry.address < entry.size {
                let name = file.withUnsafeBytes { Self.cString(in: $0, at: entry.nameOffset) }
                return (Symbol(name: name, address: entry.address, size: entry.size), address - entry.address)
            }
        }
        return nil
    }

    /// The function symbols of the image in `bytes`, or `nil` when it is not a 64-bit
    /// little-endian ELF file with a symbol table.
    private static func functions(in bytes: UnsafeRawBufferPointer) -> [Entry]? {
        let count = bytes.count
        guard count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46, bytes[4] == 2, bytes[5] == 1 else { return nil }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        let sectionsAt = Int(load(0x28, UInt64.self)), sectionSize = Int(load(0x3A, UInt16.self)), sectionCount = Int(load(0x3C, UInt16.self))
        guard sectionSize >= 64, sectionsAt > 0, sectionsAt + sectionSize * sectionCount <= count else { return nil }
        struct Section { var type: UInt32, offset: Int, size: Int, link: Int, entrySize: Int }
        let sections = (0..<sectionCount).map { index in
            let at = sectionsAt + index * sectionSize
            return Section(
                type: load(at + 4, UInt32.self), offset: Int(clamping: load(at + 24, UInt64.self)),
                size: Int(clamping: load(at + 32, UInt64.self)), link: Int(load(at + 40, UInt32.self)),
                entrySize: Int(clamping: load(at + 56, UInt64.self)))
        }
        let symtab: UInt32 = 2, dynsym: UInt32 = 11, function: UInt8 = 2
        guard let table = sections.first(where: { $0.type == symtab }) ?? sections.first(where: { $0.type == dynsym }),
            table.entrySize >= 24, table.link < sections.count
        else { return nil }
        let strings = sections[table.link]
        guard table.offset <= count, table.size <= count, strings.offset <= count, strings.size <= count else { return nil }
        let stringsEnd = min(strings.offset + strings.size, count)
        var entries: [Entry] = []
        var at = table.offset
        while at + 24 <= min(table.offset + table.size, count) {
            defer { at += table.entrySize }
            let address = load(at + 8, UInt64.self)
            let nameOffset = strings.offset + Int(load(at, UInt32.self))
            guard bytes[at + 4] & 0xF == function, address != 0, nameOffset < stringsEnd else { continue }
            entries.append(Entry(address: address, size: load(at + 16, UInt64.self), nameOffset: nameOffset))
        }
        return entries
    }

    private static func cString(in bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        var end = offset
        while end < bytes.count, bytes[end] != 0 { end += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }
}
