// Package redact replaces secrets (credentials, cookies, keys, tokens,
// signatures, URL user names and passwords) in everything pummel prints and writes, unless
// the user asks to see them.
//
// One list of words decides what is secret: a header, query parameter,
// variable or flag whose name contains one of them, in any case, holds a
// secret. Values known to be secret are collected into a Secrets, which
// then scrubs them from free text such as error messages.
//
// It only rewrites text: it never prints or writes anything itself.
package redact

import "strings"

// Redacted replaces secret values in every output.
const Redacted = "REDACTED"

// secretWords are the substrings that make a name secret. They are broad
// on purpose: hiding a harmless value costs a reader little, printing a
// credential cannot be undone. "auth" covers Authorization, X-Auth and
// oauth; "key" covers api_key and X-Api-Key; "sig" covers sig= and
// X-Amz-Signature.
var secretWords = []string{
	"auth", "password", "passwd", "secret", "token", "key", "sig",
	"session", "cookie", "credential",
}

// SecretName reports whether a header, query parameter, variable or flag
// named name holds a secret: whether the name contains one of the secret
// words, in any case ("X-Api-Key", "db_password", "--api-token").
func SecretName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
