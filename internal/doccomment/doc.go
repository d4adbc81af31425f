// Package doccomment holds only a test: that the doc comment of every
// declaration in pummel's source starts with the name it documents, when
// it starts with a name at all, so that a comment left behind when code
// was renamed or moved shows up.
package doccomment
