module github.com/restcloud/pulumi-restcloud/sdk/go

go 1.25.11

require github.com/pulumi/pulumi/sdk/v3 v3.259.0
