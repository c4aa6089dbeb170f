module github.com/pulumi-clouddb/pulumi-clouddb/tools/release/gomodzip

go 1.25.0

require golang.org/x/mod v0.38.0
