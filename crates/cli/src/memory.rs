//! How much memory the process has used (what `bench` reports beside its speed), and
//! how much the machine has (what `tables build` checks its need against).

/// The most memory the process has held resident so far (its high-water mark), in
/// bytes, where the system says (Linux, from `/proc/self/status`); `None` elsewhere.
pub fn peak_resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_high_water(&status)
}

/// The machine's physical memory in bytes, where the system says (Linux, from
/// `/proc/meminfo`); `None` elsewhere.
pub fn total_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_kib_line(&meminfo, "MemTotal:")
}

/// The `VmHWM` line of a `/proc/PID/status` text, in bytes.
fn parse_high_water(status: &str) -> Option<u64> {
    parse_kib_line(status, "VmHWM:")
}

/// The line starting with `key` of a `/proc` text, in kB, as bytes.
fn parse_kib_line(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find_map(|l| l.strip_prefix(key))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_machine_s_memory() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n";
        assert_eq!(
            parse_kib_line(meminfo, "MemTotal:"),
            Some(24_576_000 * 1024)
        );
        assert_eq!(parse_kib_line("MemFree: 5 kB\n", "MemTotal:"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_machine_has_memory() {
        let total = total_memory().expect("Linux reports MemTotal");
        assert!(total >= peak_resident().expect("and VmHWM"), "{total}");
    }

    #[test]
    fn reads_the_high_water_mark() {
        let status = "Name:\tai2048\nVmPeak:\t  300000 kB\nVmHWM:\t  104448 kB\nVmRSS:\t 1 kB\n";
        assert_eq!(parse_high_water(status), Some(104_448 * 1024));
        for bad in [
            "",
            "VmHWM:\n",
            "VmHWM: 12 MB\n",
            "VmHWM: x kB\n",
            "VmRSS: 5 kB\n",
        ] {
            assert_eq!(parse_high_water(bad), None, "{bad:?}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_a_peak() {
        let peak = peak_resident().expect("Linux reports VmHWM");
        // A test binary holds at least a megabyte and, here, far less than a terabyte.
        assert!((1 << 20..1 << 40).contains(&peak), "{peak}");
    }
}
