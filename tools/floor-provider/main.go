// pulumi-resource-floor: a Pulumi resource provider plugin that does nothing.
//
// It is the floor a provider cannot go below. Its one kind, floor:index:ApiKey, has the same inputs
// and outputs as clouddb:index:ApiKey, but creating one sends no request to any API and does no I/O:
// it makes up an id and constant outputs and answers at once. The small-stacks benchmark runs the
// same Pulumi program of N resources against clouddb and against this plugin; what this one takes is
// the engine's own time (plugin start, gRPC, state), so the difference is ours.
//
// Everything else is the infer framework's default, so no work is added: Check decodes the inputs,
// Diff compares them, Read gives back the state it was handed, and Delete does nothing.
//
// Built by build.sh beside this file; the engine finds the binary on PATH.
package main

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/pulumi/pulumi-go-provider/infer"
)

// ApiKey is the resource kind; its Go name and package (main) make the token floor:index:ApiKey.
type ApiKey struct{}

// ApiKeyArgs are the inputs, as clouddb:index:ApiKey's.
type ApiKeyArgs struct {
	Name            string  `pulumi:"name"`
	OrgId           *string `pulumi:"orgId,optional"`
	ProjectId       *string `pulumi:"projectId,optional"`
	RotationTrigger *string `pulumi:"rotationTrigger,optional"`
}

// ApiKeyState is what is kept in the state: the inputs plus what the API would have answered, the
// outputs clouddb:index:ApiKey declares. A key never used has no last use: the framework leaves a nil
// one out, where clouddb records null.
type ApiKeyState struct {
	ApiKeyArgs
	KeyId            int     `pulumi:"keyId"`
	Key              string  `pulumi:"key" provider:"secret"`
	Kind             string  `pulumi:"kind"`
	CreatedAt        *string `pulumi:"createdAt"`
	CreatedBy        *string `pulumi:"createdBy"`
	LastUsedAt       *string `pulumi:"lastUsedAt"`
	LastUsedFromAddr *string `pulumi:"lastUsedFromAddr"`
	Revoked          bool    `pulumi:"revoked"`
}

// The creation time and creator every key of the floor has.
var createdAt, createdBy = "2025-01-01T00:00:00Z", "floor"

// created counts the keys made by this run of the plugin, for ids that never repeat.
var created atomic.Int64

// Create answers at once: no request is sent anywhere.
func (ApiKey) Create(ctx context.Context, req infer.CreateRequest[ApiKeyArgs]) (infer.CreateResponse[ApiKeyState], error) {
	n := created.Add(1)
	return infer.CreateResponse[ApiKeyState]{
		ID: fmt.Sprintf("%d-%d", time.Now().UnixNano(), n),
		Output: ApiKeyState{
			ApiKeyArgs: req.Inputs,
			KeyId:      int(n),
			Key:        "floor-key-not-a-secret",
			Kind:       "personal",
			CreatedAt:  &createdAt,
			CreatedBy:  &createdBy,
		},
	}, nil
}

func main() {
	p, err := infer.NewProviderBuilder().WithResources(infer.Resource(ApiKey{})).Build()
	if err == nil {
		err = p.Run(context.Background(), "floor", "0.1.0")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
