"""Every rule, one class per file. ``ALL_RULES`` is the one explicit list; all else derives from it.

Contract used by the CLI, docs generator and tests (the engine may add to it, not change it):
each rule class has ``code`` ("XLA101"), ``name`` (kebab-case pattern name), a docstring with
the sections What it does / Why is this bad? / Example / Use instead / Fix safety, and
``VALID`` / ``INVALID`` tuples of :class:`xlacheck.rules.base.Example`.
"""

from __future__ import annotations

from xlacheck.rules.base import Example, Rule
from xlacheck.rules.batch_without_drop_remainder import BatchWithoutDropRemainder
from xlacheck.rules.branch_rank_mismatch import BranchRankMismatch
from xlacheck.rules.branch_type_mismatch import BranchTypeMismatch
from xlacheck.rules.compiled_loop_differentiated_outside import CompiledLoopDifferentiatedOutside
from xlacheck.rules.compiled_model_layer_without_kernel import CompiledModelLayerWithoutKernel
from xlacheck.rules.constant_of_symbolic_tensor import ConstantOfSymbolicTensor
from xlacheck.rules.cumulative_op_on_masked import CumulativeOpOnMasked
from xlacheck.rules.data_dependent_shape_argument import DataDependentShapeArgument
from xlacheck.rules.data_dependent_shape_op import DataDependentShapeOp
from xlacheck.rules.decomposition_sign_differs_under_xla import DecompositionSignDiffersUnderXla
from xlacheck.rules.dtype_without_xla_kernel import DtypeWithoutXlaKernel
from xlacheck.rules.dynamic_padding_without_multiple import DynamicPaddingWithoutMultiple
from xlacheck.rules.eager_jax_op_on_grown_array import EagerJaxOpOnGrownArray
from xlacheck.rules.eager_lax_body_per_call import EagerLaxBodyPerCall
from xlacheck.rules.frozen_host_read import FrozenHostRead
from xlacheck.rules.growing_tensor_to_tf_function import GrowingTensorToTfFunction
from xlacheck.rules.guard_on_constant_tensor import GuardOnConstantTensor
from xlacheck.rules.host_random_in_compiled_code import HostRandomInCompiledCode
from xlacheck.rules.implicit_mask_lost_at_tf_function import ImplicitMaskLostAtTfFunction
from xlacheck.rules.instrumentation_switch_with_jit_compile import InstrumentationSwitchWithJitCompile
from xlacheck.rules.int_cast_dtype_mismatch import IntCastDtypeMismatch
from xlacheck.rules.int_literal_before_tensor_operand import IntLiteralBeforeTensorOperand
from xlacheck.rules.integer_sign_assumed_by_xla import IntegerSignAssumedByXla
from xlacheck.rules.iterate_tensor_in_python import IterateTensorInPython
from xlacheck.rules.jax_state_weak_type_change import JaxStateWeakTypeChange
from xlacheck.rules.jax_traced_shape import JaxTracedShape
from xlacheck.rules.jit_argument_data_dependent_shape import JitArgumentDataDependentShape
from xlacheck.rules.jit_argument_shape_per_iteration import JitArgumentShapePerIteration
from xlacheck.rules.jit_argument_structure_per_iteration import JitArgumentStructurePerIteration
from xlacheck.rules.jit_carry_starts_as_none import JitCarryStartsAsNone
from xlacheck.rules.jit_compile_under_tpu_strategy import JitCompileUnderTpuStrategy
from xlacheck.rules.jit_reads_rebound_global import JitReadsReboundGlobal
from xlacheck.rules.lax_branch_output_mismatch import LaxBranchOutputMismatch
from xlacheck.rules.lax_loop_carry_type_mismatch import LaxLoopCarryTypeMismatch
from xlacheck.rules.layer_returned_from_traced_call import LayerReturnedFromTracedCall
from xlacheck.rules.local_path_in_tpu_pipeline import LocalPathInTpuPipeline
from xlacheck.rules.lookup_layer_without_kernel import LookupLayerWithoutKernel
from xlacheck.rules.loop_grown_tensor import LoopGrownTensor
from xlacheck.rules.masked_tail_index import MaskedTailIndex
from xlacheck.rules.model_created_outside_strategy_scope import ModelCreatedOutsideStrategyScope
from xlacheck.rules.name_defined_in_one_branch import NameDefinedInOneBranch
from xlacheck.rules.numpy_call_on_tensor import NumpyCallOnTensor
from xlacheck.rules.numpy_on_traced_value import NumpyOnTracedValue
from xlacheck.rules.op_on_bounded_dynamic_tensor import OpOnBoundedDynamicTensor
from xlacheck.rules.op_without_xla_kernel import OpWithoutXlaKernel
from xlacheck.rules.operation_returned_from_traced_call import OperationReturnedFromTracedCall
from xlacheck.rules.possible_nan_where_xla_differs import PossibleNanWhereXlaDiffers
from xlacheck.rules.python_builtin_on_tensors import PythonBuiltinOnTensors
from xlacheck.rules.python_builtin_on_tracer import PythonBuiltinOnTracer
from xlacheck.rules.python_callback_op import PythonCallbackOp
from xlacheck.rules.python_input_pipeline_on_tpu import PythonInputPipelineOnTpu
from xlacheck.rules.python_predicate_in_tf_cond import PythonPredicateInTfCond
from xlacheck.rules.python_scalar_of_tensor import PythonScalarOfTensor
from xlacheck.rules.python_scalar_to_tf_function import PythonScalarToTfFunction
from xlacheck.rules.python_side_effect_in_tensor_branch import PythonSideEffectInTensorBranch
from xlacheck.rules.python_state_mutated_in_compiled_step import PythonStateMutatedInCompiledStep
from xlacheck.rules.pytree_aux_data_per_call_value import PytreeAuxDataPerCallValue
from xlacheck.rules.raise_in_tensor_branch import RaiseInTensorBranch
from xlacheck.rules.return_in_one_branch import ReturnInOneBranch
from xlacheck.rules.seeded_random_differs_under_xla import SeededRandomDiffersUnderXla
from xlacheck.rules.serving_function_without_input_signature import ServingFunctionWithoutInputSignature
from xlacheck.rules.static_argument_equal_by_type import StaticArgumentEqualByType
from xlacheck.rules.static_argument_per_iteration import StaticArgumentPerIteration
from xlacheck.rules.static_argument_used_as_data import StaticArgumentUsedAsData
from xlacheck.rules.static_callable_created_per_call import StaticCallableCreatedPerCall
from xlacheck.rules.static_dim_of_dynamic_shape import StaticDimOfDynamicShape
from xlacheck.rules.static_index_under_shape_guard import StaticIndexUnderShapeGuard
from xlacheck.rules.static_self_attribute_mutated import StaticSelfAttributeMutated
from xlacheck.rules.static_size_of_unseen_callers import StaticSizeOfUnseenCallers
from xlacheck.rules.string_op_on_tensor import StringOpOnTensor
from xlacheck.rules.tensor_assert_statement import TensorAssertStatement
from xlacheck.rules.tensor_break_in_python_loop import TensorBreakInPythonLoop
from xlacheck.rules.tensor_comprehension_filter import TensorComprehensionFilter
from xlacheck.rules.tensor_condition_without_autograph import TensorConditionWithoutAutograph
from xlacheck.rules.tensor_index_into_python_list import TensorIndexIntoPythonList
from xlacheck.rules.tensor_membership_test import TensorMembershipTest
from xlacheck.rules.tensor_to_host_method import TensorToHostMethod
from xlacheck.rules.tensorarray_dynamic_size import TensorArrayDynamicSize
from xlacheck.rules.tensorarray_shape_invariant import TensorArrayShapeInvariant
from xlacheck.rules.tf_function_argument_shape_per_iteration import TfFunctionArgumentShapePerIteration
from xlacheck.rules.tf_function_created_per_call import TfFunctionCreatedPerCall
from xlacheck.rules.tf_function_input_mutated import TfFunctionInputMutated
from xlacheck.rules.tf_print_without_kernel import TfPrintWithoutKernel
from xlacheck.rules.torch_adaptive_pool_size_may_not_divide import TorchAdaptivePoolSizeMayNotDivide
from xlacheck.rules.torch_collate_packs_examples import TorchCollatePacksExamples
from xlacheck.rules.torch_collate_pads_to_longest import TorchCollatePadsToLongest
from xlacheck.rules.torch_cpu_tensor_joined_with_device import TorchCpuTensorJoinedWithDevice
from xlacheck.rules.torch_cpu_tensor_moved_in_step import TorchCpuTensorMovedInStep
from xlacheck.rules.torch_data_dependent_shape import TorchDataDependentShape
from xlacheck.rules.torch_dataloader_without_drop_last import TorchDataLoaderWithoutDropLast
from xlacheck.rules.torch_host_sync_in_step import TorchHostSyncInStep
from xlacheck.rules.torch_loop_without_sync import TorchLoopWithoutSync
from xlacheck.rules.torch_op_without_lowering import TorchOpWithoutLowering
from xlacheck.rules.torch_optimizer_step_every_n_calls import TorchOptimizerStepEveryNCalls
from xlacheck.rules.torch_optimizer_step_without_reduce import TorchOptimizerStepWithoutReduce
from xlacheck.rules.torch_save_of_xla_tensors import TorchSaveOfXlaTensors
from xlacheck.rules.torch_schedule_scalar_special_value import TorchScheduleScalarSpecialValue
from xlacheck.rules.torch_step_varying_python_int import TorchStepVaryingPythonInt
from xlacheck.rules.torch_tensor_grows_every_step import TorchTensorGrowsEveryStep
from xlacheck.rules.traced_value_hashed import TracedValueHashed
from xlacheck.rules.tracer_leaked_from_lax_body import TracerLeakedFromLaxBody
from xlacheck.rules.trained_gradient_without_xla_kernel import TrainedGradientWithoutXlaKernel
from xlacheck.rules.transformed_function_to_jit_per_call import TransformedFunctionToJitPerCall
from xlacheck.rules.unhashable_static_argument import UnhashableStaticArgument
from xlacheck.rules.unknown_dims_in_jit_signature import UnknownDimsInJitSignature
from xlacheck.rules.unsupported_op_variant import UnsupportedOpVariant
from xlacheck.rules.variable_created_in_compiled_step import VariableCreatedInCompiledStep
from xlacheck.rules.variable_grown_in_place import VariableGrownInPlace
from xlacheck.rules.variable_initialized_from_traced_data import VariableInitializedFromTracedData
from xlacheck.rules.while_loop_gradient_without_bound import WhileLoopGradientWithoutBound
from xlacheck.rules.while_loop_under_reverse_mode import WhileLoopUnderReverseMode

ALL_RULES: tuple[type[Rule], ...] = (
    # XLA1xx data-dependent control flow
    TensorConditionWithoutAutograph,
    TensorAssertStatement,
    PythonBuiltinOnTensors,
    TensorMembershipTest,
    TensorComprehensionFilter,
    IterateTensorInPython,
    NameDefinedInOneBranch,
    ReturnInOneBranch,
    RaiseInTensorBranch,
    TensorBreakInPythonLoop,
    PythonSideEffectInTensorBranch,
    TensorIndexIntoPythonList,
    BranchTypeMismatch,
    BranchRankMismatch,
    VariableGrownInPlace,
    LaxBranchOutputMismatch,
    LaxLoopCarryTypeMismatch,
    GuardOnConstantTensor,
    StaticIndexUnderShapeGuard,
    PythonPredicateInTfCond,
    TracedValueHashed,
    PythonBuiltinOnTracer,
    # XLA2xx data-dependent shapes
    MaskedTailIndex,
    CumulativeOpOnMasked,
    OpOnBoundedDynamicTensor,
    TensorArrayDynamicSize,
    TensorArrayShapeInvariant,
    WhileLoopGradientWithoutBound,
    DataDependentShapeOp,
    DataDependentShapeArgument,
    LoopGrownTensor,
    JaxTracedShape,
    StaticDimOfDynamicShape,
    # XLA3xx host syncs and ops without XLA kernels
    TensorToHostMethod,
    PythonScalarOfTensor,
    IntCastDtypeMismatch,
    NumpyCallOnTensor,
    NumpyOnTracedValue,
    ConstantOfSymbolicTensor,
    FrozenHostRead,
    PythonCallbackOp,
    TfPrintWithoutKernel,
    StringOpOnTensor,
    OpWithoutXlaKernel,
    UnsupportedOpVariant,
    DtypeWithoutXlaKernel,
    SeededRandomDiffersUnderXla,
    PossibleNanWhereXlaDiffers,
    IntegerSignAssumedByXla,
    ImplicitMaskLostAtTfFunction,
    DecompositionSignDiffersUnderXla,
    LookupLayerWithoutKernel,
    HostRandomInCompiledCode,
    TfFunctionInputMutated,
    LayerReturnedFromTracedCall,
    OperationReturnedFromTracedCall,
    TracerLeakedFromLaxBody,
    IntLiteralBeforeTensorOperand,
    WhileLoopUnderReverseMode,
    CompiledLoopDifferentiatedOutside,  # a module rule: an eager tape around a compiled loop
    InstrumentationSwitchWithJitCompile,  # a module rule: a global switch around compiled functions
    TrainedGradientWithoutXlaKernel,  # a module rule: model code of a file that trains with XLA
    CompiledModelLayerWithoutKernel,  # a module rule: a model compiled with jit_compile=True
    # XLA4xx recompile hazards, XLA5xx TPU set-up (module rules: code around compiled functions)
    DynamicPaddingWithoutMultiple,
    BatchWithoutDropRemainder,
    PythonScalarToTfFunction,
    TfFunctionCreatedPerCall,
    VariableCreatedInCompiledStep,
    VariableInitializedFromTracedData,
    PythonStateMutatedInCompiledStep,
    ServingFunctionWithoutInputSignature,
    UnknownDimsInJitSignature,
    UnhashableStaticArgument,
    StaticArgumentPerIteration,
    StaticSizeOfUnseenCallers,
    JaxStateWeakTypeChange,
    JitArgumentShapePerIteration,
    JitArgumentDataDependentShape,
    JitReadsReboundGlobal,
    StaticCallableCreatedPerCall,
    EagerLaxBodyPerCall,
    PytreeAuxDataPerCallValue,
    TransformedFunctionToJitPerCall,
    StaticArgumentEqualByType,
    EagerJaxOpOnGrownArray,
    StaticArgumentUsedAsData,
    StaticSelfAttributeMutated,
    JitCarryStartsAsNone,
    JitArgumentStructurePerIteration,
    GrowingTensorToTfFunction,
    TfFunctionArgumentShapePerIteration,
    JitCompileUnderTpuStrategy,
    ModelCreatedOutsideStrategyScope,
    PythonInputPipelineOnTpu,
    LocalPathInTpuPipeline,
    # PyTorch/XLA (module rules over xlacheck.analysis.torch_model): x50 and up in each family
    TorchDataDependentShape,
    TorchHostSyncInStep,
    TorchOpWithoutLowering,
    TorchAdaptivePoolSizeMayNotDivide,
    TorchStepVaryingPythonInt,
    TorchDataLoaderWithoutDropLast,
    TorchScheduleScalarSpecialValue,
    TorchCollatePadsToLongest,
    TorchTensorGrowsEveryStep,
    TorchLoopWithoutSync,
    TorchSaveOfXlaTensors,
    TorchOptimizerStepWithoutReduce,
    TorchCpuTensorMovedInStep,
    TorchCpuTensorJoinedWithDevice,
    TorchCollatePacksExamples,
    TorchOptimizerStepEveryNCalls,
)

__all__ = ["ALL_RULES", "Example", "Rule"]
