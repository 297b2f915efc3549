/**
 * The annotations users put on their interfaces: {@link dev.ireestubs.annotations.IreeModule} on
 * the interface, {@link dev.ireestubs.annotations.IreeFunction} on a method whose function name or
 * signature needs stating, {@link dev.ireestubs.annotations.IreeKey} on a parameter or record
 * component whose key differs from its name. No dependencies; class retention only.
 */
package dev.ireestubs.annotations;
