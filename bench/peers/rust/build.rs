// SPDX-License-Identifier: Apache-2.0
// The apache-avro version the lock file resolved, for the peer's info line.
fn main() {
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let mut version = "unknown";
    let mut it = lock.lines();
    while let Some(l) = it.next() {
        if l == "name = \"apache-avro\"" {
            if let Some(v) = it.next() {
                version = v.trim_start_matches("version = ").trim_matches('"');
            }
            break;
        }
    }
    println!("cargo:rustc-env=AVRO_CRATE_VERSION={version}");
    println!("cargo:rerun-if-changed=Cargo.lock");
}
