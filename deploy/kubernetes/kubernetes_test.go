// Package kubernetes holds the tests of the Kubernetes manifests beside
// it: the kustomization builds as kubectl apply -k builds it, its objects
// decode strictly into the official API types, the command line of every
// part is valid for pummel's own parser (pummel --dry-run), and the
// overlay of scripts/e2e-kubernetes.sh, which applies them to a real
// cluster in CI, keeps its load on loopback.
package kubernetes

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// manifests are the files of the kustomization, as shipped.
var manifests = []string{"kustomization.yaml", "job.yaml", "start.env"}

// built is the kustomization's output: the Job and its ConfigMap.
type built struct {
	job       batchv1.Job
	configMap corev1.ConfigMap
}

// build runs kustomize on the manifests as deploy/README.md's apply command
// does, with start.env written first to hold startAt.
func build(t *testing.T, startAt string) built {
	t.Helper()
	fs := filesys.MakeFsInMemory()
	for _, name := range manifests {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "start.env" {
			data = []byte("START_AT=" + startAt + "\n")
		}
		if err := fs.WriteFile(filepath.Join("/k", name), data); err != nil {
			t.Fatal(err)
		}
	}
	return kustomize(t, fs, "/k")
}

// kustomize builds the kustomization in dir of fs and decodes its Job and
// ConfigMap.
func kustomize(t *testing.T, fs filesys.FileSystem, dir string) built {
	t.Helper()
	objects, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var b built
	kinds := map[string]int{}
	for _, o := range objects.Resources() {
		doc, err := o.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		kinds[o.GetKind()]++
		switch o.GetKind() {
		case "Job":
			decodeStrict(t, doc, &b.job)
		case "ConfigMap":
			decodeStrict(t, doc, &b.configMap)
		default:
			t.Errorf("unexpected %s %s", o.GetKind(), o.GetName())
		}
	}
	if kinds["Job"] != 1 || kinds["ConfigMap"] != 1 {
		t.Fatalf("kustomize built %v, want one Job and one ConfigMap", kinds)
	}
	return b
}

// decoder decodes Deployments, Jobs and ConfigMaps as the API server's strict field
// validation does: field names are case-sensitive, and an unknown or
// duplicate field is an error rather than dropped unseen.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	if err := errors.Join(appsv1.AddToScheme(scheme), batchv1.AddToScheme(scheme), corev1.AddToScheme(scheme)); err != nil {
		panic(err)
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// decodeStrict decodes doc, a YAML object, into v strictly (decoder).
func decodeStrict(t *testing.T, doc []byte, v runtime.Object) {
	t.Helper()
	if _, _, err := decoder.Decode(doc, nil, v); err != nil {
		t.Fatalf("%v in\n%s", err, doc)
	}
}

func TestJobYAMLIsAJob(t *testing.T) {
	doc, err := os.ReadFile("job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	decodeStrict(t, doc, &job)
	if job.Kind != "Job" || job.APIVersion != "batch/v1" {
		t.Errorf("%s %s, want batch/v1 Job", job.APIVersion, job.Kind)
	}
}

func TestTheKustomizationMakesAnIndexedJobOfNParts(t *testing.T) {
	b := build(t, "2026-12-01T15:00:00Z")
	spec := b.job.Spec
	shards, err := strconv.Atoi(b.configMap.Data["SHARDS"])
	if err != nil || shards < 2 {
		t.Fatalf("SHARDS = %q, want a number of parts", b.configMap.Data["SHARDS"])
	}
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed: only an Indexed Job gives each pod its JOB_COMPLETION_INDEX", spec.CompletionMode)
	}
	if spec.Completions == nil || spec.Parallelism == nil || int(*spec.Completions) != shards || int(*spec.Parallelism) != shards {
		t.Errorf("completions %v, parallelism %v, want both %d (SHARDS): every part runs, all at once", spec.Completions, spec.Parallelism, shards)
	}
	if spec.BackoffLimitPerIndex == nil || *spec.BackoffLimitPerIndex != 0 || spec.BackoffLimit != nil || spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("backoffLimitPerIndex %v, backoffLimit %v, restartPolicy %s; want 0, unset and Never: a part run again would start out of step, and one that fails must not stop the others",
			spec.BackoffLimitPerIndex, spec.BackoffLimit, spec.Template.Spec.RestartPolicy)
	}
	containers := spec.Template.Spec.Containers
	if len(containers) != 1 {
		t.Fatalf("%d containers, want 1: kubectl logs -l prints one container's log per pod", len(containers))
	}
	c := containers[0]
	if c.Image != "registry.example.com/pummel:latest" {
		t.Errorf("image %q, want the kustomization's", c.Image)
	}
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].ConfigMapRef == nil || c.EnvFrom[0].ConfigMapRef.Name != b.configMap.Name {
		t.Errorf("envFrom %+v, want the generated ConfigMap %s", c.EnvFrom, b.configMap.Name)
	}
	if _, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
		t.Error("a CPU limit: its throttling would show in the latencies as the server's")
	}
}

// Every part's command line, as the kubelet fills it in, is valid for
// pummel: run with --dry-run, it parses and checks it and prints the part
// it would send, without sending anything.
func TestEveryPartsCommandLineIsValid(t *testing.T) {
	bin := buildPummel(t)
	startAt := time.Now().Add(2 * time.Minute).UTC().Format(time.RFC3339)
	b := build(t, startAt)
	c := b.job.Spec.Template.Spec.Containers[0]
	if len(c.Command) == 0 || c.Command[0] != "pummel" {
		t.Fatalf("command %q, want pummel's", c.Command)
	}
	shards := *b.job.Spec.Completions
	for i := range shards {
		env := map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(i)}
		for k, v := range b.configMap.Data {
			env[k] = v
		}
		args := expand(append(slices.Clone(c.Command[1:]), c.Args...), env)
		cmd := exec.Command(bin, append([]string{"--dry-run"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("part %d: pummel %s: %v\n%s", i, strings.Join(args, " "), err, out)
		}
		for _, want := range []string{fmt.Sprintf("Shard %d/%d: ", i, shards), "Start at " + startAt, "nothing was sent"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("part %d: output lacks %q:\n%s", i, want, out)
			}
		}
	}
}

// reference is a $(VAR) reference in a container's command or args.
var reference = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// expand fills in $(VAR) references from env as the kubelet does: a
// variable the container does not have is left as written.
func expand(args []string, env map[string]string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = reference.ReplaceAllStringFunc(a, func(ref string) string {
			if v, ok := env[reference.FindStringSubmatch(ref)[1]]; ok {
				return v
			}
			return ref
		})
	}
	return out
}

// buildPummel builds pummel from this repository's root module.
func buildPummel(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pummel")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/pummel")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The parts run as the restricted Pod Security Standard asks, which many
// clusters enforce (CI also applies the Job, dry, where it is enforced):
// not as root, no privilege, a read-only root file system, and /tmp to
// write in; and on the pod's own network, not the node's.
func TestThePartsRunAsTheRestrictedStandardAsks(t *testing.T) {
	spec := build(t, "2026-12-01T15:00:00Z").job.Spec.Template.Spec
	pod := spec.SecurityContext
	if pod == nil || pod.RunAsNonRoot == nil || !*pod.RunAsNonRoot ||
		pod.SeccompProfile == nil || pod.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod securityContext %+v, want runAsNonRoot and the RuntimeDefault seccomp profile", pod)
	}
	c := spec.Containers[0].SecurityContext
	if c == nil || c.AllowPrivilegeEscalation == nil || *c.AllowPrivilegeEscalation ||
		c.ReadOnlyRootFilesystem == nil || !*c.ReadOnlyRootFilesystem ||
		c.Capabilities == nil || !slices.Equal(c.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("container securityContext %+v, want no privilege escalation, a read-only root and every capability dropped", c)
	}
	tmp := slices.IndexFunc(spec.Containers[0].VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == "/tmp" })
	if tmp < 0 {
		t.Fatal("no volume at /tmp: with a read-only root, pummel has nowhere to write (an --exec server's log)")
	}
	name := spec.Containers[0].VolumeMounts[tmp].Name
	if !slices.ContainsFunc(spec.Volumes, func(v corev1.Volume) bool { return v.Name == name && v.EmptyDir != nil }) {
		t.Errorf("/tmp is volume %s, want an emptyDir", name)
	}
	if spec.HostNetwork {
		t.Error("hostNetwork in the Job users apply: only the test's overlay puts the parts on the node's network")
	}
}

// The test's own overlay (scripts/e2e/overlay, applied by
// scripts/e2e-kubernetes.sh) keeps every request on the node's loopback:
// the parts on the node's network load 127.0.0.1, where the target listens.
func TestTheTestsOverlayKeepsTheLoadOnLoopback(t *testing.T) {
	overlay := filepath.Join("..", "..", "scripts", "e2e", "overlay")
	spec := kustomize(t, filesys.MakeFsOnDisk(), overlay).job.Spec.Template.Spec
	if !spec.HostNetwork {
		t.Error("the test's parts are not on the node's network: 127.0.0.1 would be the pod's own")
	}
	args := spec.Containers[0].Args
	url := args[len(args)-1]
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("the test's parts load %s, want 127.0.0.1", url)
	}
	doc, err := os.ReadFile(filepath.Join(overlay, "target.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var target appsv1.Deployment
	decodeStrict(t, doc, &target)
	ts := target.Spec.Template.Spec
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	if !ts.HostNetwork || !slices.Equal(ts.Containers[0].Args, []string{"serve", "--addr", addr}) {
		t.Errorf("the target: hostNetwork %v, args %q; want the node's network and serve --addr %s", ts.HostNetwork, ts.Containers[0].Args, addr)
	}
}
