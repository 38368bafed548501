#include "gen/text_vocab.hpp"

#include <cstring>

namespace ghsift::gen {

namespace {

const char* const kTfApis[] = {"tf.nn.conv2d", "tf.matmul", "tf.function", "tf.data.Dataset.map", "tf.keras.layers.LSTM",
                               "tf.image.resize", "tf.reduce_mean", "tf.saved_model.load", "tf.distribute.MirroredStrategy",
                               "tf.GradientTape", "tf.lite.TFLiteConverter", "tf.math.segment_sum"};
const char* const kTorchApis[] = {"torch.nn.Conv2d", "torch.matmul", "torch.compile", "torch.utils.data.DataLoader",
                                  "torch.nn.LSTM", "torch.nn.functional.interpolate", "torch.cuda.amp.autocast",
                                  "torch.load", "torch.nn.parallel.DistributedDataParallel", "torch.einsum",
                                  "torch.nn.MultiheadAttention", "torch.jit.trace", "torch.scatter_add"};
const char* const kKerasApis[] = {"keras.layers.Dense", "keras.layers.BatchNormalization", "model.fit", "model.save",
                                  "keras.models.load_model", "keras.layers.Conv2D", "keras.callbacks.EarlyStopping",
                                  "keras.layers.Embedding", "keras.optimizers.Adam", "model.predict"};
const char* const kMxnetApis[] = {"mx.nd.dot", "gluon.nn.Conv2D", "mx.io.ImageRecordIter", "gluon.Trainer",
                                  "mx.nd.softmax", "hybridize", "gluon.nn.BatchNorm", "mx.nd.topk"};
const char* const kCaffeApis[] = {"ConvolutionLayer", "BatchNormLayer", "caffe.Net", "SoftmaxWithLoss",
                                  "net.forward", "solver.step", "DataLayer", "PoolingLayer"};
const char* const kHfApis[] = {"AutoModelForCausalLM.from_pretrained", "Trainer.train", "pipeline", "generate",
                               "AutoTokenizer.from_pretrained", "save_pretrained", "BertModel", "Seq2SeqTrainer",
                               "DataCollatorWithPadding", "LlamaForCausalLM"};
const char* const kJaxApis[] = {"jax.jit", "jax.vmap", "jax.pmap", "jax.grad", "jax.lax.scan", "jnp.einsum",
                                "jax.random.split", "jax.numpy.linalg.solve", "jax.lax.conv_general_dilated"};
const char* const kOnnxApis[] = {"onnx.checker.check_model", "onnx.shape_inference.infer_shapes", "onnx.load",
                                 "onnx.helper.make_node", "Resize", "ReduceMean", "onnx.version_converter.convert_version"};
const char* const kOrtApis[] = {"InferenceSession", "session.run", "CUDAExecutionProvider", "TensorrtExecutionProvider",
                                "quantize_dynamic", "SessionOptions", "OrtValue.ortvalue_from_numpy"};
const char* const kPaddleApis[] = {"paddle.nn.Conv2D", "paddle.matmul", "paddle.jit.to_static", "paddle.io.DataLoader",
                                   "paddle.Model.fit", "paddle.static.Executor", "paddle.nn.functional.softmax"};
const char* const kGenericApis[] = {"np.dot", "model.train", "load_checkpoint", "DataLoader", "resize_image",
                                    "train_step", "evaluate", "export_model", "tokenize"};

const char* const kTorchParams[] = {"dtype", "device", "pin_memory", "num_workers", "align_corners", "weight_decay",
                                    "reduction", "ignore_index", "padding_mode", "dim"};
const char* const kTfParams[] = {"dtype", "training", "axis", "padding", "experimental_relax_shapes", "jit_compile",
                                 "data_format", "reduction", "seed", "mask"};
const char* const kGenericParams[] = {"dtype", "axis", "padding", "seed", "batch_size", "epsilon", "momentum",
                                      "max_length", "threshold", "strict"};

const char* const kTfVersions[] = {"2.12.0", "2.13.1", "2.14.0", "2.15.0", "2.16.1", "tf-nightly"};
const char* const kTorchVersions[] = {"1.13.1", "2.0.1", "2.1.0", "2.1.2", "2.2.0", "nightly 2.3.0.dev20240101"};
const char* const kKerasVersions[] = {"2.13.1", "2.15.0", "3.0.0", "3.0.2"};
const char* const kMxnetVersions[] = {"1.8.0", "1.9.0", "1.9.1", "2.0.0b1"};
const char* const kCaffeVersions[] = {"1.0", "1.0.0-rc5", "master"};
const char* const kHfVersions[] = {"4.34.2", "4.35.0", "4.36.2", "4.37.0.dev0"};
const char* const kJaxVersions[] = {"0.4.20", "0.4.21", "0.4.23", "0.4.24"};
const char* const kOnnxVersions[] = {"1.14.1", "1.15.0", "opset 17", "opset 18"};
const char* const kOrtVersions[] = {"1.15.1", "1.16.0", "1.16.3", "1.17.0"};
const char* const kPaddleVersions[] = {"2.4.2", "2.5.1", "2.5.2", "2.6.0"};
const char* const kGenericVersions[] = {"0.3.1", "1.0.0", "1.2.4", "2.0.0rc1"};

const Dialect kDialects[] = {
    {"TensorFlow", "import tensorflow as tf", "tf.random.normal", "tensorflow/python/ops", kTfApis, kTfParams, kTfVersions},
    {"PyTorch", "import torch", "torch.randn", "torch/nn/modules", kTorchApis, kTorchParams, kTorchVersions},
    {"Keras", "import keras", "keras.random.normal", "keras/src/engine", kKerasApis, kTfParams, kKerasVersions},
    {"MXNet", "import mxnet as mx\nfrom mxnet import gluon", "mx.nd.random.normal", "mxnet/ndarray", kMxnetApis, kGenericParams, kMxnetVersions},
    {"Caffe", "import caffe", "np.random.randn", "caffe/pycaffe", kCaffeApis, kGenericParams, kCaffeVersions},
    {"Transformers", "from transformers import AutoModelForCausalLM, AutoTokenizer", "torch.randn", "transformers/models/llama", kHfApis, kTorchParams, kHfVersions},
    {"JAX", "import jax\nimport jax.numpy as jnp", "jnp.ones", "jax/_src/numpy", kJaxApis, kGenericParams, kJaxVersions},
    {"ONNX", "import onnx", "np.random.rand", "onnx/shape_inference", kOnnxApis, kGenericParams, kOnnxVersions},
    {"ONNX Runtime", "import onnxruntime as ort", "np.random.rand", "onnxruntime/capi", kOrtApis, kGenericParams, kOrtVersions},
    {"Paddle", "import paddle", "paddle.randn", "paddle/nn/layer", kPaddleApis, kGenericParams, kPaddleVersions},
    {"mylib", "import numpy as np", "np.random.rand", "mylib/core", kGenericApis, kGenericParams, kGenericVersions},
};

const char* const kDevices[] = {"an RTX 3090", "an A100 80GB", "a V100", "a T4 on Colab", "an M1 Mac (MPS)", "CPU only",
                                "2x RTX 4090", "a TPU v3-8", "an MI250 (ROCm 5.7)", "a Jetson Orin"};
const char* const kOses[] = {"Ubuntu 22.04", "Ubuntu 20.04", "Windows 11", "macOS 14.2", "CentOS 7", "Debian 12", "WSL2"};
const char* const kModels[] = {"ResNet-50", "a small CNN", "BERT-base", "an LSTM language model", "a ViT-B/16",
                               "Llama-2-7b", "a U-Net", "YOLOv5", "a GAN", "a 2-layer MLP"};
const char* const kOptimizers[] = {"Adam", "AdamW", "SGD with momentum", "RMSprop", "Adafactor", "LAMB"};
const char* const kWords[] = {"naïve", "café", "déjà vu", "señal", "Grüße", "façade", "coöperate", "smörgåsbord"};
const char* const kTasks[] = {"freeze the first layers", "use a custom loss", "export to ONNX",
                              "run inference on multiple GPUs", "load a checkpoint from an older version",
                              "set the random seed everywhere", "use mixed precision"};
const char* const kFeatures[] = {"complex64 inputs", "bfloat16 on CPU", "sparse tensors", "ragged batches",
                                 "Apple Silicon GPUs", "dynamic shapes", "int4 quantization", "Python 3.12"};
const char* const kThanks[] = {"Thanks!", "Thanks in advance 🙏", "Merci d'avance !", "Vielen Dank für die Hilfe!",
                               "谢谢！", "Any help appreciated 👍", "¿Alguien sabe por qué?", "Cheers ✌️"};
const char* const kShapes[] = {"32, 3, 224, 224", "8, 128", "1, 512, 768", "16, 10", "4, 64, 64, 3", "2, 3"};

void AppendInt(std::string& out, uint64_t v) { out += std::to_string(v); }

}  // namespace

const Dialect& DialectFor(std::string_view repo_full_name) {
  static const std::pair<const char*, int> kByRepo[] = {
      {"tensorflow/tensorflow", 0}, {"pytorch/pytorch", 1}, {"keras-team/keras", 2}, {"apache/incubator-mxnet", 3},
      {"apache/mxnet", 3}, {"BVLC/caffe", 4}, {"huggingface/transformers", 5}, {"google/jax", 6}, {"onnx/onnx", 7},
      {"microsoft/onnxruntime", 8}, {"PaddlePaddle/Paddle", 9}};
  for (const auto& [name, index] : kByRepo) {
    if (repo_full_name == name) return kDialects[index];
  }
  return kDialects[std::size(kDialects) - 1];
}

void Expand(std::string& out, std::string_view tmpl, Rng& rng, const Dialect& d) {
  size_t i = 0;
  while (i < tmpl.size()) {
    const size_t open = tmpl.find('{', i);
    if (open == std::string_view::npos) {
      out.append(tmpl.substr(i));
      return;
    }
    out.append(tmpl.substr(i, open - i));
    const size_t close = tmpl.find('}', open);
    const std::string_view key = tmpl.substr(open + 1, close - open - 1);
    i = close + 1;
    if (key == "api") {
      out += d.apis[rng.Below(d.apis.size())];
    } else if (key == "param") {
      out += d.params[rng.Below(d.params.size())];
    } else if (key == "ver") {
      out += d.versions[rng.Below(d.versions.size() - 1) + 1];
    } else if (key == "ver2") {
      out += d.versions[rng.Below(d.versions.size() - 1)];
    } else if (key == "product") {
      out += d.product;
    } else if (key == "dev") {
      out += rng.Pick(kDevices);
    } else if (key == "os") {
      out += rng.Pick(kOses);
    } else if (key == "model") {
      out += rng.Pick(kModels);
    } else if (key == "opt") {
      out += rng.Pick(kOptimizers);
    } else if (key == "n") {
      AppendInt(out, 2 + rng.Below(9));
    } else if (key == "m") {
      AppendInt(out, 10 + rng.Below(990));
    } else if (key == "p") {
      AppendInt(out, 5 + rng.Below(40));
    } else if (key == "a") {
      AppendInt(out, 85 + rng.Below(14));
    } else if (key == "b") {
      AppendInt(out, 10 + rng.Below(60));
    } else if (key == "mb") {
      AppendInt(out, 20 + rng.Below(900));
    } else if (key == "shape" || key == "shape2") {
      out += rng.Pick(kShapes);
    } else if (key == "word") {
      out += rng.Pick(kWords);
    } else if (key == "task") {
      out += rng.Pick(kTasks);
    } else if (key == "feature") {
      out += rng.Pick(kFeatures);
    } else if (key == "thanks") {
      out += rng.Pick(kThanks);
    } else {
      out.append(key);  // unknown key: keep the text, a template typo must stay visible
    }
  }
}

}  // namespace ghsift::gen
