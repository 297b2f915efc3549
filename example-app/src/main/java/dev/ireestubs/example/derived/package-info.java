/**
 * Derive mode: the whole typed client of the classifier module, derived by the iree-stubs processor
 * from {@code classifier.abi.json} with no hand-written interface. The build generates the
 * interface {@code DerivedClassifier} (records for its structures, typed arrays for its tensors)
 * and its stub {@code Iree_DerivedClassifier}, both in this package.
 */
@IreeClient(abi = "classifier.abi.json", module = "classifier", name = "DerivedClassifier")
package dev.ireestubs.example.derived;

import dev.ireestubs.annotations.IreeClient;
