extension Int64 {
    /// The quotient rounded toward negative infinity: a time before 1970 falls in the minute, hour
    /// or day that holds it.
    package func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
