# SPDX-License-Identifier: Apache-2.0
# Reads callgrind_annotate's function list (self or, with kind=inclusive,
# inclusive instructions) and prints `row<TAB>group<TAB>instructions<TAB>records`
# for the groups bench/report.py reports on: with kind=self, the bulk varint
# codecs (varint.c, every implementation) and the UTF-8 validators (utf8.c);
# the byte loops of the arrays workload's "sol" rows (wl_arrays.c); with
# kind=inclusive, the generated size function (`<prefix>_avro_size`,
# what it calls included). Used by bench/run.
/^ *[0-9,]+ \(/ {
    ir = $1
    gsub(",", "", ir)
    fn = $0
    sub(/ \[.*$/, "", fn)
    sub(/^.*:/, "", fn)
    group = ""
    if (kind == "self") {
        if (fn ~ /sol_read_longs/) group = "sol_get_longs"
        else if (fn ~ /sol_write_longs/) group = "sol_put_longs"
        else if (fn ~ /get_longs/) group = "get_longs"
        else if (fn ~ /get_ints/) group = "get_ints"
        else if (fn ~ /put_longs/) group = "put_longs"
        else if (fn ~ /put_ints/) group = "put_ints"
        else if (fn ~ /utf8_valid|ctext_check|scan_text/) group = "utf8"
    } else if (fn ~ /_avro_size$/) {
        group = "size"
    }
    if (group != "")
        sum[group] += ir
}
END {
    for (g in sum)
        printf "%s\t%s\t%d\t%d\n", row, g, sum[g], n
}
