import Foundation

/// The function symbols of a 64-bit little-endian ELF file, read from its `.symtab` (every
/// function, when the file is not stripped) or else its `.dynsym` (the exported ones), to name
/// the functions of a crash's stack at the next start without any tool.
struct ELFSymbolTable: Sendable {
    struct Symbol: Sendable, Equatable {
        var name: String
        var address: UInt64
        var size: UInt64
    }

    /// Sorted by address.
    private let symbols: [Symbol]

    /// Reads the symbols of the file at `path`; `nil` when it is not a readable 64-bit ELF file.
    init?(path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        self.init(data: data)
    }

    init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
            bytes[4] == 2, bytes[5] == 1
        else { return nil }
        let reader = Reader(bytes: bytes)
        let sectionsAt = reader.u64(0x28), entrySize = reader.u16(0x3A), count = reader.u16(0x3C)
        guard entrySize >= 64 else { return nil }
        struct Section { var type: UInt32, offset: UInt64, size: UInt64, link: UInt32, entrySize: UInt64 }
        let sections: [Section] = (0..<count).compactMap { index in
            let at = sectionsAt + UInt64(index) * UInt64(entrySize)
            guard at + 64 <= UInt64(bytes.count) else { return nil }
            return Section(type: reader.u32(at + 4), offset: reader.u64(at + 24), size: reader.u64(at + 32),
                           link: reader.u32(at + 40), entrySize: reader.u64(at + 56))
        }
        let symtab: UInt32 = 2, dynsym: UInt32 = 11, function: UInt8 = 2
        guard let table = sections.first(where: { $0.type == symtab }) ?? sections.first(where: { $0.type == dynsym }),
            table.entrySize >= 24, Int(table.link) < sections.count
        else { return nil }
        let strings = sections[Int(table.link)]
        var symbols: [Symbol] = []
        let end = min(table.offset + table.size, UInt64(bytes.count))
        var at = table.offset
        while at + 24 <= end {
            defer { at += table.entrySize }
            let address = reader.u64(at + 8)
            guard bytes[Int(at + 4)] & 0xF == function, address != 0 else { continue }
            let nameAt = strings.offset + UInt64(reader.u32(at))
            guard nameAt < min(strings.offset + strings.size, UInt64(bytes.count)) else { continue }
            symbols.append(Symbol(name: reader.cString(nameAt), address: address, size: reader.u64(at + 16)))
        }
        self.symbols = symbols.sorted { $0.address < $1.address }
    }

    /// The function holding `address` (a virtual address of the file) and the offset into it;
    /// a function of unknown size holds the addresses up to the next one.
    func symbol(containing address: UInt64) -> (symbol: Symbol, offset: UInt64)? {
        var low = 0, high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        // Among the symbols at or below `address`, the nearest one that spans it.
        var index = low - 1
        while index >= 0 {
            let symbol = symbols[index]
            if symbol.size == 0 || address < symbol.address + symbol.size {
                return (symbol, address - symbol.address)
            }
            if low - index > 8 { return nil }
            index -= 1
        }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]

        func u16(_ at: UInt64) -> UInt16 { UInt16(bytes[Int(at)]) | UInt16(bytes[Int(at) + 1]) << 8 }
        func u32(_ at: UInt64) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[Int(at) + $1]) << (8 * $1) } }
        func u64(_ at: UInt64) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[Int(at) + $1]) << (8 * $1) } }

        func cString(_ at: UInt64) -> String {
            var end = Int(at)
            while end < bytes.count, bytes[end] != 0 { end += 1 }
            return String(decoding: bytes[Int(at)..<end], as: UTF8.self)
        }
    }
}
